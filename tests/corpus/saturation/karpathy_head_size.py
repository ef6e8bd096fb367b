"""Right, in the style of Karpathy's "Let's build GPT" illustration of scaled attention: q and k drawn
as batched tensors, wei = q @ k.transpose(-2, -1) * head_size**-0.5, and .var() of the result. Torch's
.var() is the unbiased one, so the NumPy port uses .var(ddof=1); torch.softmax becomes a NumPy softmax
along dim=-1; results come back with .item() as torch users write it."""
# source: karpathy/ng-video-lecture: gpt-dev.ipynb ("Scaled" attention ... Illustration below:
#         k = torch.randn(B,T,head_size); q = ...; wei = q @ k.transpose(-2, -1) * head_size**-0.5;
#         k.var(), q.var(), wei.var())
# license: MIT (repository) / educational notebook
# adapted: torch.randn -> rng.standard_normal; one query against one key per trial (shape (trials, 1,
#          head_size)) so the scores are independent pairs instead of a T x T matrix sharing queries;
#          torch .var() (unbiased) -> ndarray.var(ddof=1); torch.softmax(dim=-1) -> a max-shifted NumPy
#          softmax; .item() to hand back Python floats
import numpy as np


def _softmax(wei, dim=-1):
    wei = wei - wei.max(axis=dim, keepdims=True)
    e = np.exp(wei)
    return e / e.sum(axis=dim, keepdims=True)


def dot_variances(d_k, trials, rng):
    head_size = d_k
    k = rng.standard_normal((trials, 1, head_size))
    q = rng.standard_normal((trials, 1, head_size))
    raw = q @ k.transpose(0, 2, 1)                 # (trials, 1, 1)
    wei = q @ k.transpose(0, 2, 1) * head_size**-0.5
    return raw.var(ddof=1).item(), wei.var(ddof=1).item()


def mean_top_weight(d_k, n_keys, trials, rng, scaled=True):
    head_size = d_k
    q = rng.standard_normal((trials, 1, head_size))
    k = rng.standard_normal((trials, n_keys, head_size))
    wei = q @ k.transpose(0, 2, 1)                 # (trials, 1, n_keys)
    if scaled:
        wei = wei * head_size**-0.5
    wei = _softmax(wei, dim=-1)
    return wei.max(axis=-1).mean().item()
