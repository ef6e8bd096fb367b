"""Right, nanoGPT style: the check written `assert config.n_embd % config.n_head == 0` in the source,
made a ValueError here, and the head size computed as C // n_head; the scores multiplied by
(1.0 / math.sqrt(k.size(-1))) as CausalSelfAttention does. Softmax via log-sum-exp with np.logaddexp.reduce,
the weights as exp(s - logsumexp), times 100."""
# source: karpathy/nanoGPT: model.py (CausalSelfAttention: assert config.n_embd % config.n_head == 0;
#         att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1))); hs = C // self.n_head)
# license: MIT
# adapted: assert -> if ...: raise ValueError (an assert raises AssertionError, not the ValueError the
#          contract asks for); k.size(-1) -> d_k; F.softmax -> np.exp(s - np.logaddexp.reduce(s)); * 100
import math

import numpy as np


def scale_scores(raw, d_k):
    return raw * (1.0 / math.sqrt(d_k))


def softmax_percent(raw, d_k, scaled=True):
    att = scale_scores(raw, d_k) if scaled else raw
    att = np.asarray(att, dtype=np.float64)
    return 100.0 * np.exp(att - np.logaddexp.reduce(att))


def head_dim(d_model, n_heads):
    n_embd, n_head = d_model, n_heads
    if n_embd % n_head != 0:
        raise ValueError(f"n_embd ({n_embd}) must be divisible by n_head ({n_head})")
    return n_embd // n_head
