# A correct softmax, from one of the 70 helper modules beside it (and 1000 data files),
# all of whose names sort before every exercise file's.
softmax = __import__("00_helper_07").softmax
