"""Hugging Face GPT-2 style: _split_heads (view to (..., num_heads, head_dim), permute(0, 2, 1, 3)),
_attn with torch.where(causal_mask, attn_weights, torch.finfo(dtype).min), _merge_heads.

The constructor's own check raises ValueError when embed_dim is not divisible by num_heads.
"""
# source: huggingface/transformers:src/transformers/models/gpt2/modeling_gpt2.py (GPT2Attention)
# license: Apache-2.0
# adapted: torch -> NumPy (view -> reshape, permute -> transpose, torch.where/finfo -> np.where/np.finfo,
#   softmax -> max-shifted exp / sum); the fused c_attn Conv1D and c_proj become W_q, W_k, W_v, W_o
#   without bias; batch of 1 (hidden_states[None]); the "bias" tril buffer replaced by the exercise's
#   optional mask (None = nothing masked); attention_mask/head_mask/dropout/layer-idx scaling dropped;
#   scale by key.shape[-1] ** 0.5 (HF uses value.size(-1), equal there); cross_attention completed
#   with the same _attn (GPT-2's is_cross_attention path).
import numpy as np


def _split_heads(tensor, num_heads, attn_head_size):
    """
    Splits hidden_size dim into attn_head_size and num_heads
    """
    new_shape = tensor.shape[:-1] + (num_heads, attn_head_size)
    tensor = tensor.reshape(new_shape)
    return tensor.transpose(0, 2, 1, 3)  # (batch, head, seq_length, head_features)


def _merge_heads(tensor, num_heads, attn_head_size):
    """
    Merges attn_head_size dim and num_attn_heads dim into hidden_size
    """
    tensor = tensor.transpose(0, 2, 1, 3)
    new_shape = tensor.shape[:-2] + (num_heads * attn_head_size,)
    return tensor.reshape(new_shape)


def _attn(query, key, value, attention_mask=None):
    attn_weights = np.matmul(query, np.swapaxes(key, -1, -2))

    attn_weights = attn_weights / np.full([], key.shape[-1] ** 0.5, dtype=attn_weights.dtype)

    if attention_mask is not None:
        mask_value = np.finfo(attn_weights.dtype).min
        mask_value = np.full([], mask_value, dtype=attn_weights.dtype)
        attn_weights = np.where(attention_mask, attn_weights, mask_value)

    attn_weights = np.exp(attn_weights - attn_weights.max(axis=-1, keepdims=True))
    attn_weights = attn_weights / attn_weights.sum(axis=-1, keepdims=True)

    attn_output = np.matmul(attn_weights, value)
    return attn_output, attn_weights


def multi_head_attention(hidden_states, W_q, W_k, W_v, W_o, num_heads, mask=None):
    embed_dim = hidden_states.shape[-1]
    head_dim = embed_dim // num_heads
    if head_dim * num_heads != embed_dim:
        raise ValueError(
            f"`embed_dim` must be divisible by num_heads (got `embed_dim`: {embed_dim} and `num_heads`:"
            f" {num_heads})."
        )
    hidden_states = hidden_states[None]
    query, key, value = hidden_states @ W_q, hidden_states @ W_k, hidden_states @ W_v

    query = _split_heads(query, num_heads, head_dim)
    key = _split_heads(key, num_heads, head_dim)
    value = _split_heads(value, num_heads, head_dim)

    attn_output, attn_weights = _attn(query, key, value, mask)

    attn_output = _merge_heads(attn_output, num_heads, head_dim)
    attn_output = attn_output @ W_o
    return attn_output[0]


def cross_attention(hidden_states, encoder_hidden_states, W_q, W_k, W_v, mask=None):
    query = hidden_states @ W_q
    key = encoder_hidden_states @ W_k
    value = encoder_hidden_states @ W_v
    return _attn(query, key, value, mask)
