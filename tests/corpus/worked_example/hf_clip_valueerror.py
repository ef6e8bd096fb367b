"""Right, head_dim as Hugging Face transformers writes it in its attention modules (CLIPAttention and
many copies): head_dim = embed_dim // num_heads, then `if head_dim * num_heads != embed_dim: raise
ValueError(...)`. The scaling is written `* head_dim**-0.5` as the same modules do (self.scale), and
the softmax is the classic "subtract the max, exponentiate, normalise" one-liner, times 100."""
# source: huggingface/transformers: src/transformers/models/clip/modeling_clip.py (CLIPAttention.__init__:
#         self.head_dim = self.embed_dim // self.num_heads; if self.head_dim * self.num_heads !=
#         self.embed_dim: raise ValueError(f"embed_dim must be divisible by num_heads (got `embed_dim`: ...
#         and `num_heads`: ...).")); self.scale = self.head_dim**-0.5
# license: Apache-2.0
# adapted: the __init__ check lifted into head_dim(d_model, n_heads); self.scale applied to one query's
#          raw scores; the softmax written in NumPy (the module uses nn.functional.softmax)
import numpy as np


def scale_scores(raw, d_k):
    scale = d_k**-0.5
    return raw * scale


def softmax_percent(raw, d_k, scaled=True):
    scores = scale_scores(raw, d_k) if scaled else raw
    e = np.exp(scores - np.max(scores))
    return 100 * e / np.sum(e)


def head_dim(d_model, n_heads):
    embed_dim, num_heads = d_model, n_heads
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise ValueError(
            f"embed_dim must be divisible by num_heads (got `embed_dim`: {embed_dim} and `num_heads`:"
            f" {num_heads})."
        )
    return head_dim
