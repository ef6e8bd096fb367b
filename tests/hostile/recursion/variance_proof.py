def product_mean():
    return product_mean()


def product_variance():
    return 1 + product_variance()


def dot_variance():
    return dot_variance()


def scaled_dot_variance():
    return scaled_dot_variance()
