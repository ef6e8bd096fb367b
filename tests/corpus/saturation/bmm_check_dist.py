"""Right, in the style of the "check_dotproduct_dist" snippet that checks footnote 4 of "Attention Is
All You Need": q and k drawn with nn.init.normal_(mean=0, std=1) and multiplied with torch.bmm, then
attn.var() and attn / sqrt(d_k). Ported to NumPy with rng.normal(0, 1, size) and np.matmul; the
softmax is written through log-sum-exp; results are plain floats."""
# source: public snippet "def check_dotproduct_dist(d_k, sampling_size=1, seq_len=1, threshold=1e-10)"
#         (found in several PyTorch Transformer tutorial repositories and a Korean blog post; repository
#         name not recorded by the index)
# license: unknown
# adapted: nn.init.normal_(torch.rand(...), mean=0, std=1) -> rng.normal(0, 1, size); torch.bmm ->
#          np.matmul; seq_len queries x seq_len keys -> one query per trial (dot_variances: one key, so
#          the trials are independent pairs; mean_top_weight: n_keys keys); torch .var() (unbiased) ->
#          np.var(..., ddof=1); torch.sqrt(torch.as_tensor(d_k).float()) -> np.sqrt(d_k); the gradient
#          count replaced by the largest softmax weight, computed as exp(max - logsumexp)
import numpy as np


def dot_variances(d_k, trials, rng):
    q = rng.normal(0, 1, size=(trials, 1, d_k))
    k = rng.normal(0, 1, size=(trials, 1, d_k))
    attn = np.matmul(q, k.transpose(0, 2, 1))
    attn2 = attn / np.sqrt(d_k)
    return float(np.var(attn, ddof=1)), float(np.var(attn2, ddof=1))


def mean_top_weight(d_k, n_keys, trials, rng, scaled=True):
    q = rng.normal(0, 1, size=(trials, 1, d_k))
    k = rng.normal(0, 1, size=(trials, n_keys, d_k))
    attn = np.matmul(q, k.transpose(0, 2, 1))[:, 0, :]
    if scaled:
        attn = attn / np.sqrt(d_k)
    m = attn.max(axis=1)
    logsumexp = m + np.log(np.exp(attn - m[:, None]).sum(axis=1))
    top = np.exp(m - logsumexp)          # the largest weight: softmax at the largest score
    return float(top.mean())
