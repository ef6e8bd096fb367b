import sys


def product_mean():
    sys.exit(0)


def product_variance():
    sys.exit(1)


def dot_variance():
    sys.exit("done")


def scaled_dot_variance():
    sys.exit(0)
