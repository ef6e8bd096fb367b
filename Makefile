# Thin wrappers around tasks.py, which needs nothing but python3.
PYTHON ?= python3

.PHONY: demo test setup clean
demo:
	$(PYTHON) tasks.py demo
test:
	$(PYTHON) tasks.py test
setup:
	$(PYTHON) tasks.py setup
clean:
	rm -rf .venv .pytest_cache .hypothesis
