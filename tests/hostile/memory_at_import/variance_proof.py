# Ten gigabytes at import.
HOARD = bytearray(10**10)
