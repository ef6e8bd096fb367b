"""hand_scores: Cleo's answers."""


def scaled_scores():
    return ("sqrt(2)/2", "0")


def attention_weights():
    return ("exp(1/sqrt(2)) / (1 + exp(1/sqrt(2)))", "1/(1 + e^(1/sqrt(2)))")


def attention_output():
    return ("4*exp(sqrt(2)/2)/(1 + exp(sqrt(2)/2))", "4/(1 + exp(sqrt(2)/2))")
