# An endless loop at import: the import times out, the other exercises are graded.
while True:
    pass
