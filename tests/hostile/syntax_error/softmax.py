def softmax(z, axis=-1)
    return z
