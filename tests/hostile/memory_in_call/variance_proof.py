# Every call grows a list of 64 MB arrays until memory runs out.
import numpy as np


def _grow():
    hoard = []
    while True:
        hoard.append(np.zeros(2**23))


def product_mean():
    _grow()


def product_variance():
    _grow()


def dot_variance():
    _grow()


def scaled_dot_variance():
    _grow()
