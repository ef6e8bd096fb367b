# Imports fine; every call spins forever.
def scaled_scores():
    while True:
        pass


def attention_weights():
    while True:
        pass


def attention_output():
    while True:
        pass
