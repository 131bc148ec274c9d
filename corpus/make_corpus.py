"""Export the real-model corpus: random-init PyTorch models and blocks to
linalg-on-tensors MLIR with torch-mlir, each with the inputs it was run on
and PyTorch's own outputs.

    corpus/<name>.mlir   the export (``@<name>``, weights as dense_resource)
    corpus/<name>.npz    ``inputs``: arr_0..; ``outputs``: out_0.. (PyTorch's)

Blocks and the 1-layer GPT-2 and BERT (checked in, each well under 8 MB) go
to ``corpus/``; whole CNNs (``--models``, tens of MB of weights) and the
models added since session 70 (kept out of the test suite's time) go to
``build/corpus/`` (``make corpus-models``). Nothing here reshapes what the front end emits:
the files are torch-mlir's output as it comes, so schedgen meets what a new
user's model gives it (size-1 reduction dims, multi-result max, pads before
convs, concat, erf, i1 masks, i64 token ids, shared source locations). One
exception: ``aten.cumsum`` is decomposed before the import (see ``_cumsum``),
because torch-mlir's own lowering is an op of a dialect upstream MLIR lacks.

torch, torchvision, transformers, timm and torch-mlir are DEVELOPMENT-ONLY
dependencies (the ``corpus`` extra), installed by ``make corpus`` into
``.venv-corpus``, never into schedgen's own environment: torch-mlir bundles
its own copy of the MLIR bindings. Seeds are fixed, so every run writes the
same bytes.
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from dataclasses import dataclass
from importlib import metadata
from pathlib import Path
from typing import Callable

import numpy as np
import torch
from torch import nn

ROOT = Path(__file__).resolve().parent.parent


def _import_torchvision():
    """torchvision's C extension (detection ops only) may not load next to a
    CPU torch; registering its fake kernels then fails on import. The
    classification models need none of it."""
    real = torch.library.register_fake

    def lenient(*args, **kwargs):
        def register(fn):
            try:
                return real(*args, **kwargs)(fn)
            except RuntimeError:  # the op it describes does not exist here
                return fn
        return register

    torch.library.register_fake = lenient
    try:
        import torchvision
    finally:
        torch.library.register_fake = real
    return torchvision


@dataclass
class Case:
    name: str
    what: str
    build: Callable[[], tuple[nn.Module, tuple[torch.Tensor, ...]]]
    whole_model: bool = False


def _seeded(seed: int = 0) -> None:
    torch.manual_seed(seed)
    np.random.seed(seed)


def _token_ids(seed: int) -> torch.Tensor:
    """32 token ids of a 1000-word vocabulary, from a generator of their own."""
    return torch.randint(0, 1000, (1, 32), generator=torch.Generator().manual_seed(seed))


# -- CNN blocks ------------------------------------------------------------------

def _vision(seed: int, make: Callable, shape: tuple[int, ...]) -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    """A torchvision module made by `make(torchvision.models)` after seeding,
    with real batch-norm statistics, and one random input of `shape`."""
    models = _import_torchvision().models
    _seeded(seed)
    module = make(models)
    _randomize_bn(module)
    return module, (torch.randn(*shape),)


def resnet_block():
    return _vision(0, lambda tv: tv.resnet.BasicBlock(64, 64), (1, 64, 28, 28))


def resnet_down_block():
    """resnet18's layer2[0]: stride-2 3x3 conv and a 1x1 stride-2 downsample."""
    return _vision(1, lambda tv: tv.resnet18().layer2[0], (1, 64, 28, 28))


def resnet_stem():
    """conv 7x7 stride 2 pad 3, batch norm, relu, max pool 3x3 stride 2 pad 1."""
    def stem(tv):
        m = tv.resnet18()
        return nn.Sequential(m.conv1, m.bn1, m.relu, m.maxpool)
    return _vision(2, stem, (1, 3, 64, 64))


def mobilenet_block():
    """mobilenet_v2's inverted residual: 1x1 expand, depthwise 3x3, 1x1 project."""
    return _vision(3, lambda tv: tv.mobilenetv2.InvertedResidual(24, 24, stride=1, expand_ratio=6), (1, 24, 28, 28))


def resnet18_model():
    return _vision(4, lambda tv: tv.resnet18(), (1, 3, 224, 224))


def mobilenet_v2_model():
    return _vision(5, lambda tv: tv.mobilenet_v2(), (1, 3, 224, 224))


def convnext_block():
    """ConvNeXt-T's stage-1 block: depthwise 7x7 pad 3, permute to channels-last, layer norm, Linear
    96 -> 384, exact GELU, Linear 384 -> 96, permute back, layer scale, residual. Layer scale 1, not
    the 1e-6 of a fresh model, so that the branch counts in the outputs a check compares."""
    return _vision(16, lambda tv: tv.convnext.CNBlock(96, layer_scale=1.0, stochastic_depth_prob=0.0),
                   (1, 96, 56, 56))


def squeezenet_model():
    return _vision(17, lambda tv: tv.squeezenet1_1(), (1, 3, 224, 224))


def shufflenet_model():
    return _vision(18, lambda tv: tv.shufflenet_v2_x0_5(), (1, 3, 224, 224))


def efficientnet_model():
    return _vision(19, lambda tv: tv.efficientnet_b0(), (1, 3, 224, 224))


def regnet_model():
    return _vision(31, lambda tv: tv.regnet_x_400mf(), (1, 3, 224, 224))


def googlenet_model():
    return _vision(32, lambda tv: tv.googlenet(aux_logits=False, init_weights=True), (1, 3, 224, 224))


def _persistent(model: nn.Module) -> nn.Module:
    """Non-persistent buffers (position ids, relative-position indices) have
    no state mapping in torch-mlir's export: make them persistent."""
    for m in model.modules():
        for name in sorted(m._non_persistent_buffers_set):
            buf = getattr(m, name)
            delattr(m, name)
            m.register_buffer(name, buf, persistent=True)
    return model


def _randomize_bn(m: nn.Module) -> None:
    """Random-init batch norms are identities in eval mode; give them real
    statistics so the folded scale and shift matter."""
    g = torch.Generator().manual_seed(7)
    for bn in m.modules():
        if isinstance(bn, (nn.BatchNorm2d, nn.BatchNorm3d)):
            n = bn.num_features
            bn.running_mean.copy_(torch.rand(n, generator=g) * 0.2 - 0.1)
            bn.running_var.copy_(torch.rand(n, generator=g) * 0.5 + 0.75)
            bn.weight.data.copy_(torch.rand(n, generator=g) * 0.5 + 0.75)
            bn.bias.data.copy_(torch.rand(n, generator=g) * 0.2 - 0.1)


# -- transformers ---------------------------------------------------------------

class _First(nn.Module):
    """A block that returns a tuple, reduced to its first output."""

    def __init__(self, inner: nn.Module, **kwargs) -> None:
        super().__init__()
        self.inner = inner
        self.kwargs = kwargs

    def forward(self, *args):
        out = self.inner(*args, **self.kwargs)
        return out[0] if isinstance(out, (tuple, list)) else out


def _gpt2_config(layers: int):
    from transformers import GPT2Config

    return GPT2Config(n_embd=128, n_head=4, n_layer=layers, n_positions=64, vocab_size=1000,
                      attn_implementation="eager", resid_pdrop=0.0, embd_pdrop=0.0, attn_pdrop=0.0)


def gpt2_block():
    from transformers.models.gpt2.modeling_gpt2 import GPT2Block

    _seeded(10)
    block = GPT2Block(_gpt2_config(1), layer_idx=0).eval()
    return _First(block), (torch.randn(1, 32, 128),)


class _CausalLM(nn.Module):
    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, ids, mask):
        return self.model(input_ids=ids, attention_mask=mask, use_cache=False, return_dict=False)[0]


def gpt2_model():
    """A 1-layer GPT-2 with its embeddings, causal mask and LM head, on token ids
    and an attention mask (as a tokenizer gives them; without the mask,
    transformers looks for packed sequences with a cumsum that torch-mlir
    exports as tm_tensor.scan, a dialect upstream MLIR does not have)."""
    from transformers import GPT2LMHeadModel

    _seeded(11)
    model = GPT2LMHeadModel(_gpt2_config(1)).eval()
    ids = _token_ids(11)
    return _CausalLM(model), (ids, torch.ones(1, 32, dtype=torch.int64))


def _bert_config(layers: int):
    from transformers import BertConfig

    return BertConfig(hidden_size=128, num_attention_heads=4, intermediate_size=512, num_hidden_layers=layers,
                      vocab_size=1000, max_position_embeddings=64, attn_implementation="eager",
                      hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)


def bert_layer():
    from transformers.models.bert.modeling_bert import BertLayer

    _seeded(12)
    layer = BertLayer(_bert_config(1)).eval()
    return _First(layer), (torch.randn(1, 32, 128),)


class _Encoder(nn.Module):
    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, ids):
        return self.model(input_ids=ids, return_dict=False)[0]


def bert_model():
    """A 1-layer BERT encoder on token ids (embeddings, layer norm, one layer)."""
    from transformers import BertModel

    _seeded(13)
    model = _persistent(BertModel(_bert_config(1), add_pooling_layer=False).eval())
    ids = _token_ids(13)
    return _Encoder(model), (ids,)


def vit_block():
    """One ViT-tiny encoder block (dim 192, 3 heads, MLP 768, exact GELU) on 197 tokens."""
    from timm.models.vision_transformer import Block

    _seeded(14)
    block = Block(dim=192, num_heads=3, mlp_ratio=4.0, qkv_bias=True).eval()
    return block, (torch.randn(1, 197, 192),)


def swin_block():
    """Swin-T's stage-1 shifted-window block (dim 96, 3 heads, window 7, shift 3, with the shift's
    attention mask and relative position bias) on a channels-last 56x56 map."""
    from timm.models.swin_transformer import SwinTransformerBlock

    _seeded(20)
    block = SwinTransformerBlock(dim=96, input_resolution=(56, 56), num_heads=3, window_size=7, shift_size=3)
    return _persistent(block.eval()), (torch.randn(1, 56, 56, 96),)


def distilbert_model():
    """A 1-layer DistilBERT on token ids (hidden 128, 4 heads, FFN 512)."""
    from transformers import DistilBertConfig, DistilBertModel

    _seeded(21)
    config = DistilBertConfig(vocab_size=1000, dim=128, n_layers=1, n_heads=4, hidden_dim=512,
                              max_position_embeddings=64, attn_implementation="eager", dropout=0.0,
                              attention_dropout=0.0)
    model = _persistent(DistilBertModel(config).eval())
    ids = _token_ids(21)
    return _Encoder(model), (ids,)


def vit_tiny_model():
    """ViT-tiny with one block: 16x16 patch conv, cls-token concat, 197 tokens, head."""
    from timm.models.vision_transformer import VisionTransformer

    _seeded(15)
    model = VisionTransformer(img_size=224, patch_size=16, embed_dim=192, depth=1, num_heads=3,
                              num_classes=100).eval()
    return model, (torch.randn(1, 3, 224, 224),)


def vit_ti16_model():
    """timm's ViT-Ti/16 as vit_tiny_patch16_224 builds it: 12 blocks of dim 192, 3 heads, 1000 classes,
    the class token read by the head (after the final norm over all 197 tokens)."""
    from timm.models.vision_transformer import VisionTransformer

    _seeded(33)
    model = VisionTransformer(img_size=224, patch_size=16, embed_dim=192, depth=12, num_heads=3,
                              num_classes=1000).eval()
    return model, (torch.randn(1, 3, 224, 224),)



def llama_model():
    """A 1-layer LLaMA on token ids (hidden 128, 4 heads over 2 key/value heads, SiLU-gated MLP 352):
    RMSNorm, rotary embeddings, grouped-query attention."""
    from transformers import LlamaConfig, LlamaModel

    _seeded(40)
    config = LlamaConfig(vocab_size=1000, hidden_size=128, intermediate_size=352, num_hidden_layers=1,
                         num_attention_heads=4, num_key_value_heads=2, max_position_embeddings=64,
                         attn_implementation="eager")
    model = _persistent(LlamaModel(config).eval())
    ids = _token_ids(40)
    return _Encoder(model), (ids,)


def mobilenet_v3_model():
    return _vision(41, lambda tv: tv.mobilenet_v3_small(), (1, 3, 224, 224))


def resnet50_layer1():
    """resnet50's first stage: three bottlenecks (1x1 64, 3x3 64, 1x1 256), the first with a 1x1
    downsample."""
    return _vision(42, lambda tv: tv.resnet50().layer1, (1, 64, 56, 56))


def resnet50_layer1_256():
    """The same stage as a 256x256 image reaches it: 64x64 planes (a whole plane, 16 KiB, between the rows
    of each 1x1 convolution's input)."""
    return _vision(42, lambda tv: tv.resnet50().layer1, (1, 64, 64, 64))


def densenet_block():
    """densenet121's first dense block: six layers, each bn-relu-1x1-bn-relu-3x3 and a concat."""
    return _vision(43, lambda tv: tv.densenet121().features.denseblock1, (1, 64, 56, 56))


# -- models added in session 80: torchvision, timm and transformers models nobody shaped schedgen for ----------

def regnet_y_model():
    return _vision(60, lambda tv: tv.regnet_y_400mf(), (1, 3, 224, 224))


def mnasnet_model():
    return _vision(61, lambda tv: tv.mnasnet0_5(), (1, 3, 224, 224))


def densenet121_model():
    return _vision(62, lambda tv: tv.densenet121(), (1, 3, 224, 224))


def _timm(seed: int, name: str, shape: tuple[int, ...]) -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    """timm's `name`, random-init, made as _vision makes torchvision's."""
    import timm

    return _vision(seed, lambda _: timm.create_model(name, pretrained=False).eval(), shape)


def _timm_case(name: str, seed: int, what: str, side: int = 224, timm_name: str | None = None) -> Case:
    """A whole timm model on one 1x3x`side`x`side` image (`timm_name`: timm's name, when not `name`)."""
    return Case(name, f"{what}, 1x3x{side}x{side}", lambda: _timm(seed, timm_name or name, (1, 3, side, side)),
                whole_model=True)


def mixer_model():
    return _timm(64, "mixer_s16_224", (1, 3, 224, 224))


def convnext_atto_model():
    return _timm(65, "convnext_atto", (1, 3, 224, 224))


def mobilevit_model():
    return _timm(66, "mobilevit_xxs", (1, 3, 256, 256))


class _Hidden(nn.Module):
    """An encoder's last hidden state alone."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x).last_hidden_state


def whisper_model():
    """A 1-layer Whisper encoder on 40 mel bins x 200 frames: two 1-D convolutions (the second of stride 2),
    GELU, sinusoidal positions, attention."""
    from transformers import WhisperConfig
    from transformers.models.whisper.modeling_whisper import WhisperEncoder

    _seeded(50)
    config = WhisperConfig(d_model=128, encoder_layers=1, encoder_attention_heads=4, encoder_ffn_dim=512,
                           num_mel_bins=40, max_source_positions=100, attn_implementation="eager")
    return _Hidden(WhisperEncoder(config).eval()), (torch.randn(1, 40, 200),)


def t5_model():
    """A 1-layer T5 encoder on token ids (d_model 128, 4 heads): RMS norm, relative-position buckets
    (integer |j - i| and logs), ReLU feed-forward."""
    from transformers import T5Config, T5EncoderModel

    _seeded(51)
    config = T5Config(vocab_size=1000, d_model=128, d_kv=32, d_ff=512, num_layers=1, num_heads=4)
    model = _persistent(T5EncoderModel(config).eval())
    ids = _token_ids(51)
    return _Encoder(model), (ids,)



# -- models added in session 81: the same, nobody shaped schedgen for them --------------------------------------

class _SegmentationOut(nn.Module):
    """A torchvision segmentation model's "out" map alone."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)["out"]


def lraspp_model():
    return _vision(70, lambda tv: _SegmentationOut(tv.segmentation.lraspp_mobilenet_v3_large(
        weights=None, weights_backbone=None, num_classes=21)), (1, 3, 224, 224))


def wav2vec2_model():
    """A 1-layer wav2vec 2.0 on 4000 raw samples: three strided 1-D convolutions (group norm on the
    first), a grouped positional convolution, attention."""
    from transformers import Wav2Vec2Config, Wav2Vec2Model

    _seeded(71)
    config = Wav2Vec2Config(hidden_size=128, num_hidden_layers=1, num_attention_heads=4, intermediate_size=512,
                            conv_dim=(64, 64, 64), conv_stride=(5, 2, 2), conv_kernel=(10, 3, 3),
                            num_conv_pos_embeddings=16, num_conv_pos_embedding_groups=4,
                            feat_extract_norm="group", attn_implementation="eager")
    return _Hidden(Wav2Vec2Model(config).eval()), (torch.randn(1, 4000),)


def squeezebert_model():
    """A 1-layer SqueezeBERT: grouped 1x1 1-D convolutions in place of its Linears."""
    from transformers import SqueezeBertConfig, SqueezeBertModel

    _seeded(72)
    config = SqueezeBertConfig(vocab_size=1000, hidden_size=128, embedding_size=128, num_hidden_layers=1,
                               num_attention_heads=4, intermediate_size=512, q_groups=4, k_groups=4, v_groups=4,
                               post_attention_groups=4, intermediate_groups=4, output_groups=4)
    return _Encoder(_persistent(SqueezeBertModel(config).eval())), (_token_ids(72),)


def convbert_model():
    """A 1-layer ConvBERT: span-based dynamic convolution (a depthwise-separable 1-D convolution, an unfold)
    beside attention."""
    from transformers import ConvBertConfig, ConvBertModel

    _seeded(73)
    config = ConvBertConfig(vocab_size=1000, hidden_size=128, embedding_size=128, num_hidden_layers=1,
                            num_attention_heads=4, intermediate_size=512, head_ratio=2, conv_kernel_size=9,
                            attn_implementation="eager")
    return _Encoder(_persistent(ConvBertModel(config).eval())), (_token_ids(73),)


def poolformer_model():
    return _timm(74, "poolformer_s12", (1, 3, 224, 224))


def levit_model():
    model, inputs = _timm(75, "levit_128s", (1, 3, 224, 224))
    return _persistent(model), inputs


def ghostnet_model():
    return _timm(76, "ghostnet_100", (1, 3, 224, 224))


def efficientvit_model():
    return _timm(77, "efficientvit_b0", (1, 3, 224, 224))


# -- models added in session 82: the same, nobody shaped schedgen for them --------------------------------------

def r3d_model():
    """torchvision's video ResNet (3-D convolutions throughout) on an 8-frame 56x56 clip."""
    return _vision(80, lambda tv: tv.video.r3d_18(), (1, 3, 8, 56, 56))


def nf_regnet_model():
    return _timm(81, "nf_regnet_b0", (1, 3, 224, 224))


def mixnet_model():
    return _timm(82, "mixnet_s", (1, 3, 224, 224))


def skresnet_model():
    return _timm(83, "skresnet18", (1, 3, 224, 224))


def deberta_model():
    """A 1-layer DeBERTa-v2 encoder: disentangled attention (content-to-position and back) over log-bucketed
    relative positions."""
    from transformers import DebertaV2Config, DebertaV2Model

    _seeded(84)
    config = DebertaV2Config(vocab_size=1000, hidden_size=128, num_hidden_layers=1, num_attention_heads=4,
                             intermediate_size=512, max_position_embeddings=64, relative_attention=True,
                             position_buckets=16, max_relative_positions=64, pos_att_type=["p2c", "c2p"],
                             norm_rel_ebd="layer_norm", share_att_key=True)
    return _Encoder(_persistent(DebertaV2Model(config).eval())), (_token_ids(84),)


def segformer_model():
    """A SegFormer encoder (MiT-b0's widths, one block per stage) on a 128x128 image: overlapping strided patch
    convolutions, attention over keys reduced by strided convolutions, Mix-FFN's depthwise convolution."""
    from transformers import SegformerConfig, SegformerModel

    _seeded(86)
    config = SegformerConfig(depths=[1, 1, 1, 1], sr_ratios=[8, 4, 2, 1], hidden_sizes=[32, 64, 160, 256],
                             num_attention_heads=[1, 2, 5, 8], mlp_ratios=[4, 4, 4, 4])
    return _Hidden(SegformerModel(config).eval()), (torch.randn(1, 3, 128, 128),)


def xcit_model():
    return _timm(87, "xcit_nano_12_p16_224", (1, 3, 224, 224))


def gptneox_model():
    """A 1-layer GPT-NeoX (Pythia's architecture): rotary embeddings on a quarter of each head, attention and
    MLP in parallel off one residual."""
    from transformers import GPTNeoXConfig, GPTNeoXModel

    _seeded(88)
    config = GPTNeoXConfig(vocab_size=1000, hidden_size=128, num_hidden_layers=1, num_attention_heads=4,
                           intermediate_size=512, rotary_pct=0.25, max_position_embeddings=64,
                           attn_implementation="eager")
    model = _persistent(GPTNeoXModel(config).eval())
    return _CausalLM(model), (_token_ids(88), torch.ones(1, 32, dtype=torch.int64))


def mobilebert_model():
    """A 1-layer MobileBERT (its default widths: 512 in and out of 128-wide bottlenecks, four stacked FFNs,
    NoNorm's elementwise affine)."""
    from transformers import MobileBertConfig, MobileBertModel

    _seeded(89)
    config = MobileBertConfig(vocab_size=1000, num_hidden_layers=1, max_position_embeddings=64)
    return _Encoder(_persistent(MobileBertModel(config, add_pooling_layer=False).eval())), (_token_ids(89),)


# -- models added in session 83: the same, nobody shaped schedgen for them --------------------------------------

class _Pixels(nn.Module):
    """A transformers vision model on pixel values, its last hidden state alone."""

    def __init__(self, model: nn.Module) -> None:
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(pixel_values=x, return_dict=False)[0]


def ecaresnet_model():
    return _timm(90, "ecaresnet26t", (1, 3, 224, 224))


def resnest_model():
    return _timm(91, "resnest14d", (1, 3, 224, 224))


def cait_model():
    return _timm(92, "cait_xxs24_224", (1, 3, 224, 224))


def pvt_model():
    return _timm(93, "pvt_v2_b0", (1, 3, 224, 224))


def inception_model():
    """torchvision's Inception v3 (1x7 and 7x1 convolutions, four-branch concats) on its 299x299 input."""
    return _vision(94, lambda tv: tv.inception_v3(weights=None, aux_logits=False, init_weights=True),
                   (1, 3, 299, 299))


def albert_model():
    """A 1-layer ALBERT: 64-wide factorized embeddings projected to the 128-wide layer."""
    from transformers import AlbertConfig, AlbertModel

    _seeded(95)
    config = AlbertConfig(vocab_size=1000, embedding_size=64, hidden_size=128, num_hidden_layers=1,
                          num_attention_heads=4, intermediate_size=512, max_position_embeddings=64,
                          attn_implementation="eager", hidden_dropout_prob=0.0, attention_probs_dropout_prob=0.0)
    return _Encoder(_persistent(AlbertModel(config, add_pooling_layer=False).eval())), (_token_ids(95),)


def beit_model():
    """A 1-layer BEiT on a 224x224 image: a relative-position bias table gathered per head, layer scale."""
    from transformers import BeitConfig, BeitModel

    _seeded(96)
    config = BeitConfig(hidden_size=192, num_hidden_layers=1, num_attention_heads=3, intermediate_size=768,
                        image_size=224, patch_size=16, use_relative_position_bias=True, use_mean_pooling=False,
                        attn_implementation="eager")
    return _Pixels(_persistent(BeitModel(config, add_pooling_layer=False).eval())), (torch.randn(1, 3, 224, 224),)


def gpt_bigcode_model():
    """A 1-layer GPT-BigCode (SantaCoder's architecture): multi-query attention, one key and value head shared
    by all; tanh GELU (torch-mlir's export multiplies by 0.797724, not sqrt(2/pi): its payload is 1.5e-4 off
    PyTorch's outputs before any schedule)."""
    from transformers import GPTBigCodeConfig, GPTBigCodeModel

    _seeded(97)
    config = GPTBigCodeConfig(vocab_size=1000, n_embd=128, n_layer=1, n_head=4, n_positions=64, multi_query=True,
                              attn_implementation="eager")
    model = _persistent(GPTBigCodeModel(config).eval())
    return _CausalLM(model), (_token_ids(97), torch.ones(1, 32, dtype=torch.int64))


def convnextv2_model():
    """transformers' ConvNeXt V2 at atto widths: global response normalization in every block."""
    from transformers import ConvNextV2Config, ConvNextV2Model

    _seeded(98)
    config = ConvNextV2Config(hidden_sizes=[40, 80, 160, 320], depths=[2, 2, 6, 2])
    return _Pixels(ConvNextV2Model(config).eval()), (torch.randn(1, 3, 224, 224),)


def clip_vision_model():
    """A 1-layer CLIP vision tower on a 224x224 image in 32x32 patches: quick GELU, a pre-layer norm."""
    from transformers import CLIPVisionConfig, CLIPVisionModel

    _seeded(99)
    config = CLIPVisionConfig(hidden_size=192, intermediate_size=768, num_hidden_layers=1, num_attention_heads=3,
                              image_size=224, patch_size=32, attn_implementation="eager")
    return _Pixels(_persistent(CLIPVisionModel(config).eval())), (torch.randn(1, 3, 224, 224),)


def hrnet_model():
    return _timm(100, "hrnet_w18_small", (1, 3, 224, 224))


def repvgg_model():
    return _timm(101, "repvgg_a0", (1, 3, 224, 224))


# -- models added in session 84: the same, nobody shaped schedgen for them --------------------------------------

def deeplabv3_model():
    """torchvision's DeepLabV3 on MobileNetV3-Large: dilated depthwise convolutions, ASPP (dilations 12, 24,
    36, and a global pool), bilinear upsampling."""
    return _vision(102, lambda tv: _SegmentationOut(tv.segmentation.deeplabv3_mobilenet_v3_large(
        weights=None, weights_backbone=None, aux_loss=False)), (1, 3, 224, 224))


def r2plus1d_model():
    return _vision(103, lambda tv: tv.video.r2plus1d_18(), (1, 3, 8, 56, 56))


def _decoder(seed: int, model: nn.Module) -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    return _CausalLM(_persistent(model.eval())), (_token_ids(seed), torch.ones(1, 32, dtype=torch.int64))


def _small_decoder(seed: int, config_cls: type, model_cls: type,
                   **config) -> tuple[nn.Module, tuple[torch.Tensor, ...]]:
    """A 1-layer decoder of hidden size 128, 4 heads and 1000 words, on 32 token ids and their mask; `config`
    adds what makes the architecture itself."""
    _seeded(seed)
    base = dict(vocab_size=1000, hidden_size=128, num_hidden_layers=1, num_attention_heads=4,
                max_position_embeddings=64, attn_implementation="eager")
    return _decoder(seed, model_cls(config_cls(**base, **config)))


def bloom_model():
    """A 1-layer BLOOM: ALiBi offsets from a cumulative sum of the attention mask, tanh GELU."""
    from transformers import BloomConfig, BloomModel

    _seeded(110)
    return _decoder(110, BloomModel(BloomConfig(vocab_size=1000, hidden_size=128, n_layer=1, n_head=4,
                                                attn_implementation="eager")))


def opt_model():
    """A 1-layer OPT: learned positions from a cumulative sum of the attention mask, ReLU MLP."""
    from transformers import OPTConfig, OPTModel

    _seeded(111)
    config = OPTConfig(vocab_size=1000, hidden_size=128, num_hidden_layers=1, num_attention_heads=4, ffn_dim=512,
                       max_position_embeddings=64, word_embed_proj_dim=128, attn_implementation="eager")
    return _decoder(111, OPTModel(config))


def mistral_model():
    """A 1-layer Mistral: one key-value head for four query heads, a sliding window of 16 tokens, SwiGLU."""
    from transformers import MistralConfig, MistralModel

    return _small_decoder(112, MistralConfig, MistralModel, intermediate_size=384, num_key_value_heads=1,
                          sliding_window=16)


def phi_model():
    """A 1-layer Phi: rotary on half of each head, attention and MLP in parallel, tanh GELU."""
    from transformers import PhiConfig, PhiModel

    _seeded(113)
    config = PhiConfig(vocab_size=1000, hidden_size=128, intermediate_size=512, num_hidden_layers=1,
                       num_attention_heads=4, partial_rotary_factor=0.5, max_position_embeddings=64,
                       attn_implementation="eager")
    return _decoder(113, PhiModel(config))


def dinov2_model():
    """A 1-layer DINOv2 on a 224x224 image in 14x14 patches: layer scale, a SwiGLU MLP."""
    from transformers import Dinov2Config, Dinov2Model

    _seeded(114)
    config = Dinov2Config(hidden_size=192, num_hidden_layers=1, num_attention_heads=3, image_size=224,
                          patch_size=14, use_swiglu_ffn=True, attn_implementation="eager")
    return _Pixels(_persistent(Dinov2Model(config).eval())), (torch.randn(1, 3, 224, 224),)


# -- models added in session 88: the same, nobody shaped schedgen for them --------------------------------------

def qwen2_model():
    """A 1-layer Qwen2: biased q/k/v projections, two key-value heads for four query heads, RMS norm, SwiGLU."""
    from transformers import Qwen2Config, Qwen2Model

    return _small_decoder(120, Qwen2Config, Qwen2Model, intermediate_size=384, num_key_value_heads=2)


def gemma_model():
    """A 1-layer Gemma: embeddings scaled by sqrt(hidden), RMS norm with a unit offset, tanh-GELU gating,
    one key-value head."""
    from transformers import GemmaConfig, GemmaModel

    return _small_decoder(121, GemmaConfig, GemmaModel, intermediate_size=384, num_key_value_heads=1,
                          head_dim=32)


def falcon_model():
    """A 1-layer Falcon: one fused query-key-value projection, multi-query attention, attention and MLP in
    parallel off one layer norm."""
    from transformers import FalconConfig, FalconModel

    _seeded(122)
    config = FalconConfig(vocab_size=1000, hidden_size=128, num_hidden_layers=1, num_attention_heads=4,
                          multi_query=True, parallel_attn=True, new_decoder_architecture=False, bias=False,
                          attn_implementation="eager")
    return _decoder(122, FalconModel(config))


def esm_model():
    """A 1-layer ESM-2 protein encoder: rotary positions, token dropout rescaling by the mask count, GELU."""
    from transformers import EsmConfig, EsmModel

    _seeded(123)
    config = EsmConfig(vocab_size=33, hidden_size=128, num_hidden_layers=1, num_attention_heads=4,
                       intermediate_size=512, max_position_embeddings=64, position_embedding_type="rotary",
                       pad_token_id=1, mask_token_id=32, token_dropout=True, attn_implementation="eager")
    model = _persistent(EsmModel(config, add_pooling_layer=False).eval())
    ids = torch.randint(4, 24, (1, 32), generator=torch.Generator().manual_seed(123))
    return _CausalLM(model), (ids, torch.ones(1, 32, dtype=torch.int64))


def tiny_vit_model():
    model, inputs = _timm(126, "tiny_vit_5m_224", (1, 3, 224, 224))
    return _persistent(model), inputs  # its attention-bias indices are a non-persistent buffer


CASES = [
    Case("resnet_block", "torchvision resnet BasicBlock(64, 64), 1x64x28x28", resnet_block),
    Case("resnet_down_block", "torchvision resnet18 layer2[0] (stride 2, 1x1 downsample), 1x64x28x28",
         resnet_down_block),
    Case("resnet_stem", "torchvision resnet18 stem (7x7/2 pad 3 conv, bn, relu, 3x3/2 max pool), 1x3x64x64",
         resnet_stem),
    Case("mobilenet_block", "torchvision mobilenet_v2 InvertedResidual(24, 24, expand 6), 1x24x28x28",
         mobilenet_block),
    Case("gpt2_block", "transformers GPT2Block (n_embd 128, 4 heads), 1x32x128", gpt2_block),
    Case("bert_layer", "transformers BertLayer (hidden 128, 4 heads, FFN 512), 1x32x128", bert_layer),
    Case("vit_block", "timm ViT Block (dim 192, 3 heads, MLP 768, exact GELU), 1x197x192", vit_block),
    Case("vit_tiny", "timm VisionTransformer, 1 block, patch 16, 224x224 -> 197 tokens, 100 classes",
         vit_tiny_model),
    Case("gpt2_1layer", "transformers GPT2LMHeadModel, 1 layer, n_embd 128, vocab 1000, 32 token ids",
         gpt2_model),
    Case("bert_1layer", "transformers BertModel, 1 layer, hidden 128, vocab 1000, 32 token ids",
         bert_model),
    Case("convnext_block", "torchvision ConvNeXt CNBlock(96), layer scale 1, 1x96x56x56", convnext_block),
    Case("swin_block", "timm SwinTransformerBlock (dim 96, 3 heads, window 7, shift 3), 1x56x56x96", swin_block),
    Case("distilbert_1layer", "transformers DistilBertModel, 1 layer, dim 128, vocab 1000, 32 token ids",
         distilbert_model),
    Case("resnet18", "torchvision resnet18, 1x3x224x224", resnet18_model, whole_model=True),
    Case("mobilenet_v2", "torchvision mobilenet_v2, 1x3x224x224", mobilenet_v2_model, whole_model=True),
    Case("squeezenet", "torchvision squeezenet1_1, 1x3x224x224", squeezenet_model, whole_model=True),
    Case("shufflenet", "torchvision shufflenet_v2_x0_5, 1x3x224x224", shufflenet_model, whole_model=True),
    Case("efficientnet_b0", "torchvision efficientnet_b0, 1x3x224x224", efficientnet_model, whole_model=True),
    Case("regnet_x_400mf", "torchvision regnet_x_400mf (grouped convolutions), 1x3x224x224", regnet_model,
         whole_model=True),
    Case("googlenet", "torchvision googlenet (inception branches, concat), 1x3x224x224", googlenet_model,
         whole_model=True),
    Case("vit_ti16", "timm ViT-Ti/16 (vit_tiny_patch16_224: 12 blocks, dim 192, 3 heads), 1x3x224x224",
         vit_ti16_model, whole_model=True),
    Case("llama_1layer", "transformers LlamaModel, 1 layer, hidden 128, 4 heads / 2 kv heads, 32 token ids",
         llama_model, whole_model=True),
    Case("mobilenet_v3_small", "torchvision mobilenet_v3_small (hardswish, squeeze-excite), 1x3x224x224",
         mobilenet_v3_model, whole_model=True),
    Case("resnet50_layer1", "torchvision resnet50 layer1 (three bottlenecks), 1x64x56x56", resnet50_layer1,
         whole_model=True),
    Case("densenet_block", "torchvision densenet121 denseblock1 (six layers, concat), 1x64x56x56",
         densenet_block, whole_model=True),
    Case("resnet50_layer1_256", "torchvision resnet50 layer1 (three bottlenecks) at a 256x256 image's size, "
         "1x64x64x64", resnet50_layer1_256, whole_model=True),
    Case("regnet_y_400mf", "torchvision regnet_y_400mf (grouped convolutions, squeeze-excite), 1x3x224x224",
         regnet_y_model, whole_model=True),
    Case("mnasnet0_5", "torchvision mnasnet0_5 (depthwise 3x3 and 5x5), 1x3x224x224", mnasnet_model,
         whole_model=True),
    Case("densenet121", "torchvision densenet121 (four dense blocks, 58 concats), 1x3x224x224", densenet121_model,
         whole_model=True),
    Case("mixer_s16", "timm mixer_s16_224 (MLP-Mixer: token and channel MLPs, transposes), 1x3x224x224",
         mixer_model, whole_model=True),
    Case("convnext_atto", "timm convnext_atto (depthwise 7x7, channels-last layer norms), 1x3x224x224",
         convnext_atto_model, whole_model=True),
    Case("mobilevit_xxs", "timm mobilevit_xxs (convolutions, unfolded patches, attention), 1x3x256x256",
         mobilevit_model, whole_model=True),
    Case("whisper_1layer", "transformers WhisperEncoder, 1 layer, d_model 128, 40 mel bins x 200 frames",
         whisper_model, whole_model=True),
    Case("t5_1layer", "transformers T5EncoderModel, 1 layer, d_model 128, 4 heads, 32 token ids", t5_model,
         whole_model=True),
    Case("lraspp_mbv3", "torchvision lraspp_mobilenet_v3_large (segmentation: bilinear upsampling), 1x3x224x224",
         lraspp_model, whole_model=True),
    Case("wav2vec2_1layer", "transformers Wav2Vec2Model, 1 layer, hidden 128, 4000 samples", wav2vec2_model,
         whole_model=True),
    Case("squeezebert_1layer", "transformers SqueezeBertModel, 1 layer, hidden 128, groups 4, 32 token ids",
         squeezebert_model, whole_model=True),
    Case("convbert_1layer", "transformers ConvBertModel, 1 layer, hidden 128, kernel 9, 32 token ids",
         convbert_model, whole_model=True),
    Case("poolformer_s12", "timm poolformer_s12 (pooling token mixer, group norms), 1x3x224x224", poolformer_model,
         whole_model=True),
    Case("levit_128s", "timm levit_128s (attention with bias tables, hardswish), 1x3x224x224", levit_model,
         whole_model=True),
    Case("ghostnet_100", "timm ghostnet_100 (ghost modules: cheap depthwise halves, concat), 1x3x224x224",
         ghostnet_model, whole_model=True),
    Case("efficientvit_b0", "timm efficientvit_b0 (ReLU linear attention, hardswish), 1x3x224x224",
         efficientvit_model, whole_model=True),
    Case("r3d_18", "torchvision video r3d_18 (3-D convolutions), 1x3x8x56x56", r3d_model, whole_model=True),
    Case("nf_regnet_b0", "timm nf_regnet_b0 (normalizer-free: weights standardized at run time), 1x3x224x224",
         nf_regnet_model, whole_model=True),
    Case("mixnet_s", "timm mixnet_s (mixed 3x3-9x9 depthwise kernels over channel splits), 1x3x224x224",
         mixnet_model, whole_model=True),
    Case("skresnet18", "timm skresnet18 (selective kernels: softmax over two branches), 1x3x224x224",
         skresnet_model, whole_model=True),
    Case("deberta_v2_1layer", "transformers DebertaV2Model, 1 layer, hidden 128, 16 position buckets, "
         "32 token ids", deberta_model, whole_model=True),
    Case("segformer_b0", "transformers SegformerModel (MiT-b0 widths, 1 block per stage), 1x3x128x128",
         segformer_model, whole_model=True),
    Case("xcit_nano_12_p16", "timm xcit_nano_12_p16_224 (cross-covariance attention, 12 blocks), 1x3x224x224",
         xcit_model, whole_model=True),
    Case("gptneox_1layer", "transformers GPTNeoXModel, 1 layer, hidden 128, rotary on 1/4, 32 token ids",
         gptneox_model, whole_model=True),
    Case("mobilebert_1layer", "transformers MobileBertModel, 1 layer (default widths), 32 token ids",
         mobilebert_model, whole_model=True),
    Case("ecaresnet26t", "timm ecaresnet26t (efficient channel attention: a 1-D convolution across channels)"
         ", 1x3x224x224", ecaresnet_model, whole_model=True),
    Case("resnest14d", "timm resnest14d (split attention: a softmax over radix-2 grouped branches), 1x3x224x224",
         resnest_model, whole_model=True),
    Case("cait_xxs24", "timm cait_xxs24_224 (talking-heads attention, class attention, layer scale), 1x3x224x224",
         cait_model, whole_model=True),
    Case("pvt_v2_b0", "timm pvt_v2_b0 (spatial-reduction attention, depthwise convolution in the MLP), "
         "1x3x224x224", pvt_model, whole_model=True),
    Case("inception_v3", "torchvision inception_v3 (1x7 and 7x1 convolutions, branch concats), 1x3x299x299",
         inception_model, whole_model=True),
    Case("albert_1layer", "transformers AlbertModel, 1 layer, 64-wide embeddings, hidden 128, 32 token ids",
         albert_model, whole_model=True),
    Case("beit_1layer", "transformers BeitModel, 1 layer, dim 192, relative-position bias, 1x3x224x224",
         beit_model, whole_model=True),
    Case("gpt_bigcode_1layer", "transformers GPTBigCodeModel, 1 layer, hidden 128, multi-query attention, "
         "32 token ids", gpt_bigcode_model, whole_model=True),
    Case("convnextv2_atto", "transformers ConvNextV2Model (atto widths, global response norm), 1x3x224x224",
         convnextv2_model, whole_model=True),
    Case("clip_vision_1layer", "transformers CLIPVisionModel, 1 layer, dim 192, patch 32, 1x3x224x224",
         clip_vision_model, whole_model=True),
    Case("hrnet_w18_small", "timm hrnet_w18_small (parallel resolutions, upsampled and strided exchanges), "
         "1x3x224x224", hrnet_model, whole_model=True),
    Case("repvgg_a0", "timm repvgg_a0 (3x3, 1x1 and identity branches, each with its batch norm), 1x3x224x224",
         repvgg_model, whole_model=True),
    Case("deeplabv3_mbv3", "torchvision deeplabv3_mobilenet_v3_large (dilated depthwise convolutions, ASPP, "
         "bilinear upsampling), 1x3x224x224", deeplabv3_model, whole_model=True),
    Case("r2plus1d_18", "torchvision video r2plus1d_18 ((2+1)-D convolutions: 1x3x3 then 3x1x1), 1x3x8x56x56",
         r2plus1d_model, whole_model=True),
    _timm_case("botnet26t", 104, "timm botnet26t_256 (self-attention with relative-position logits in a ResNet)",
               side=256, timm_name="botnet26t_256"),
    _timm_case("halonet26t", 105, "timm halonet26t (blocked local attention over haloed windows)", side=256),
    _timm_case("edgenext_xx_small", 106, "timm edgenext_xx_small (split depthwise convolutions, transposed "
               "attention, Fourier positions)", side=256),
    _timm_case("fastvit_t8", 107, "timm fastvit_t8 (RepMixer token mixing, large-kernel depthwise convolutions)",
               side=256),
    _timm_case("mobilevitv2_050", 108, "timm mobilevitv2_050 (separable linear attention, group norms)", side=256),
    _timm_case("rexnet_100", 109, "timm rexnet_100 (channels zero-extended on residuals, ReLU6, squeeze-excite)"),
    _timm_case("gmlp_ti16", 115, "timm gmlp_ti16_224 (spatial gating: a token-mixing projection of half the "
               "channels)", timm_name="gmlp_ti16_224"),
    _timm_case("lambda_resnet26t", 116, "timm lambda_resnet26t (lambda layers: a 3-D convolution for position "
               "lambdas)", side=256),
    Case("bloom_1layer", "transformers BloomModel, 1 layer, hidden 128, ALiBi, 32 token ids and mask", bloom_model,
         whole_model=True),
    Case("opt_1layer", "transformers OPTModel, 1 layer, hidden 128, learned positions, 32 token ids and mask",
         opt_model, whole_model=True),
    Case("mistral_1layer", "transformers MistralModel, 1 layer, hidden 128, 4 heads / 1 kv head, window 16, "
         "32 token ids and mask", mistral_model, whole_model=True),
    Case("phi_1layer", "transformers PhiModel, 1 layer, hidden 128, rotary on half of each head, parallel "
         "attention and MLP, 32 token ids and mask", phi_model, whole_model=True),
    Case("dinov2_1layer", "transformers Dinov2Model, 1 layer, dim 192, patch 14, SwiGLU, 1x3x224x224",
         dinov2_model, whole_model=True),
    _timm_case("mobileone_s0", 124, "timm mobileone_s0 (reparameterizable branches: k parallel 3x3 and 1x1 convs "
               "with batch norms)"),
    _timm_case("efficientformer_l1", 125, "timm efficientformer_l1 (pooling mixers in 4-D stages, then a 3-D "
               "attention stage with attention biases)"),
    Case("tiny_vit_5m", "timm tiny_vit_5m_224 (MBConv stages, windowed attention with biases, a depthwise conv "
         "between attention and MLP), 1x3x224x224", tiny_vit_model,
         whole_model=True),
    _timm_case("hgnetv2_b0", 127, "timm hgnetv2_b0 (stem with a same-padded max pool and concat, light convs, "
               "learnable affine activations)"),
    _timm_case("starnet_s1", 128, "timm starnet_s1 (star operation: an elementwise product of two ReLU6 and linear "
               "branches, 7x7 depthwise convs)"),
    _timm_case("dla34", 129, "timm dla34 (deep layer aggregation: trees of blocks whose outputs are concatenated and "
               "projected)"),
    _timm_case("mobilenetv4_conv_small", 130, "timm mobilenetv4_conv_small (universal inverted bottlenecks with "
               "optional depthwise convs before and after the expansion)"),
    _timm_case("lcnet_050", 131, "timm lcnet_050 (hard-swish depthwise-separable stages, 5x5 kernels, squeeze-excite)"),
    Case("qwen2_1layer", "transformers Qwen2Model, 1 layer, hidden 128, 4 heads / 2 kv heads, biased qkv, "
         "32 token ids and mask", qwen2_model, whole_model=True),
    Case("gemma_1layer", "transformers GemmaModel, 1 layer, hidden 128, 4 heads / 1 kv head, tanh-GELU gating, "
         "32 token ids and mask", gemma_model, whole_model=True),
    Case("falcon_1layer", "transformers FalconModel, 1 layer, hidden 128, multi-query, parallel attention and "
         "MLP, 32 token ids and mask", falcon_model, whole_model=True),
    Case("esm2_1layer", "transformers EsmModel (ESM-2), 1 layer, hidden 128, rotary, token-dropout rescaling, "
         "32 protein tokens and mask", esm_model, whole_model=True),
]


def _cumsum(x: torch.Tensor, dim: int, dtype: torch.dtype | None = None) -> torch.Tensor:
    """aten.cumsum as a sum under a lower-triangular mask. torch-mlir lowers cumsum to
    `tm_tensor.scan`, its own dialect, which no upstream MLIR parses (a TorchToLinalg lowering,
    llvm/torch-mlir#4566, is not merged); BLOOM's ALiBi, OPT's positions and EdgeNeXt's Fourier
    positions each take one. Quadratic in the scanned length, which is 32 tokens or 32 pixels here."""
    n = x.shape[dim]
    lower = torch.ones(n, n, dtype=torch.bool).tril()  # [i, k]: k <= i
    terms = torch.where(lower, x.movedim(dim, -1).unsqueeze(-2), torch.zeros((), dtype=x.dtype))
    total = terms.sum(-1).movedim(-1, dim)
    return total.to(dtype) if dtype is not None else total


def export(case: Case, out_dir: Path) -> Path:
    from torch_mlir import fx
    from torch_mlir.extras.fx_decomp_util import get_decomposition_table

    model, inputs = case.build()
    model.eval()
    table = {**get_decomposition_table(), torch.ops.aten.cumsum.default: _cumsum}
    with torch.no_grad():
        outputs = model(*inputs)
        module = fx.export_and_import(model, *inputs, output_type="linalg-on-tensors", func_name=case.name,
                                      decomposition_table=table)
    outputs = outputs if isinstance(outputs, (tuple, list)) else (outputs,)
    header = (f"// Generated by corpus/make_corpus.py (torch {torch.__version__}, "
              f"torch-mlir {metadata.version('torch-mlir')}): {case.what}.\n"
              f"// Random-init weights, eval mode; the export as torch-mlir gives it. Do not edit by hand.\n")
    path = out_dir / f"{case.name}.mlir"
    path.write_text(header + str(module))
    arrays = {f"in_{i}": t.numpy() for i, t in enumerate(inputs)}
    arrays.update({f"out_{i}": t.detach().numpy() for i, t in enumerate(outputs)})
    np.savez_compressed(out_dir / f"{case.name}.npz", **arrays)
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("names", nargs="*", help="cases to export (default: every block, or every model)")
    parser.add_argument("--models", action="store_true", help="the whole models, into build/corpus/")
    parser.add_argument("-o", "--out-dir", type=Path, help="output folder")
    args = parser.parse_args(argv)
    chosen = [c for c in CASES if (c.name in args.names if args.names else c.whole_model == args.models)]
    if args.names and len(chosen) != len(args.names):
        print(f"unknown case; known: {', '.join(c.name for c in CASES)}", file=sys.stderr)
        return 2
    _import_torchvision()  # first: transformers imports it too, and would fail on it
    for case in chosen:
        out = args.out_dir or (ROOT / "build" / "corpus" if case.whole_model else ROOT / "corpus")
        out.mkdir(parents=True, exist_ok=True)
        with contextlib.redirect_stdout(sys.stderr):
            path = export(case, out)
        print(f"wrote {path.relative_to(ROOT) if path.is_relative_to(ROOT) else path} "
              f"({path.stat().st_size / 1e6:.1f} MB)", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
