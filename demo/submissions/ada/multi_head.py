"""multi_head: Ada's answers."""
import numpy as np


def _softmax(s):
    e = np.exp(s - s.max(axis=-1, keepdims=True))
    return e / e.sum(axis=-1, keepdims=True)


def multi_head_attention(X, W_q, W_k, W_v, W_o, n_heads, mask=None):
    N, d_model = np.shape(X)
    d_k, rest = divmod(d_model, n_heads)
    if rest:
        raise ValueError(f"{n_heads} heads do not divide d_model = {d_model}")
    q, k, v = ((X @ W).reshape(N, n_heads, d_k) for W in (W_q, W_k, W_v))  # (N, H, d_k)
    s = np.einsum("ihd,jhd->hij", q, k) / np.sqrt(d_k)  # (H, N, N)
    if mask is not None:
        s = np.where(mask[None], s, -np.inf)
    att = _softmax(s)
    y = np.einsum("hij,jhd->ihd", att, v).reshape(N, d_model)  # heads side by side, head 0 first
    return y @ W_o


def cross_attention(X_dec, X_enc, W_q, W_k, W_v, mask=None):
    s = np.einsum("ik,jk->ij", X_dec @ W_q, X_enc @ W_k) / np.sqrt(W_q.shape[1])
    if mask is not None:
        s = np.where(mask, s, -np.inf)
    att = _softmax(s)
    return att @ (X_enc @ W_v), att
