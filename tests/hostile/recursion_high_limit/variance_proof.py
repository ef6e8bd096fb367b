# With the limit raised, recursion through a builtin (map) overflows the C stack:
# the process dies with SIGSEGV.
import sys

sys.setrecursionlimit(10**6)


def product_mean():
    return list(map(lambda _: product_mean(), [0]))


def product_variance():
    return list(map(lambda _: product_variance(), [0]))


def dot_variance():
    return list(map(lambda _: dot_variance(), [0]))


def scaled_dot_variance():
    return list(map(lambda _: scaled_dot_variance(), [0]))
