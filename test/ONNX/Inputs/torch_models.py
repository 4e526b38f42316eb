#!/usr/bin/python3
"""Builds small PyTorch models with random weights, exports each to ONNX
(opset 17, torch.onnx.export) and writes an input and PyTorch's output.

    torch_models.py {cnn,transformer,recurrent} DIR

writes DIR/NAME.onnx, DIR/NAME.input.npy and DIR/NAME.expected.npy (the
CNN, exported with a dynamic batch, also NAME.input5.npy and
NAME.expected5.npy, a batch of 5). The models are built in code and
seeded: nothing is downloaded.
"""

import os
import sys

import numpy as np
import torch
from torch import nn


class SmallCNN(nn.Module):
    """Convolutions of every kind a CNN has: padded, strided, depthwise
    and pointwise, with batch norm, ReLU6, residual adds, pooling and a
    classifier."""

    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(
            nn.Conv2d(3, 16, 3, stride=2, padding=1, bias=False),
            nn.BatchNorm2d(16), nn.ReLU6())
        self.block = nn.Sequential(
            nn.Conv2d(16, 32, 1, bias=False), nn.BatchNorm2d(32), nn.ReLU6(),
            nn.Conv2d(32, 32, 3, padding=1, groups=32, bias=False),
            nn.BatchNorm2d(32), nn.ReLU6(),
            nn.Conv2d(32, 16, 1, bias=False), nn.BatchNorm2d(16))
        self.pool = nn.MaxPool2d(2)
        self.head = nn.Sequential(
            nn.Conv2d(16, 24, 3, padding=1), nn.ReLU(),
            nn.AdaptiveAvgPool2d(1), nn.Flatten(), nn.Linear(24, 10))

    def forward(self, x):
        x = self.stem(x)
        x = x + self.block(x)
        return torch.softmax(self.head(self.pool(x)), dim=-1)


class EncoderLayer(nn.Module):
    """A pre-norm transformer encoder layer written out (PyTorch 1.13's
    nn.TransformerEncoderLayer exports through a fused op ONNX lacks):
    multi-head self-attention, then a GELU feed-forward, each residual."""

    def __init__(self, width, heads, hidden):
        super().__init__()
        self.heads = heads
        self.norm1 = nn.LayerNorm(width)
        self.qkv = nn.Linear(width, 3 * width)
        self.proj = nn.Linear(width, width)
        self.norm2 = nn.LayerNorm(width)
        self.ff = nn.Sequential(nn.Linear(width, hidden), nn.GELU(),
                                nn.Linear(hidden, width))

    def forward(self, x):
        batch, length, width = x.shape
        q, k, v = self.qkv(self.norm1(x)).chunk(3, dim=-1)
        split = lambda t: t.reshape(batch, length, self.heads, -1).transpose(1, 2)
        q, k, v = split(q), split(k), split(v)
        scores = q @ k.transpose(-2, -1) / (width // self.heads) ** 0.5
        attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2)
        x = x + self.proj(attended.reshape(batch, length, width))
        return x + self.ff(self.norm2(x))


class SmallTransformer(nn.Module):
    """An embedding with learned positions, two encoder layers and a
    pooled projection."""

    def __init__(self, vocabulary=50, width=32, heads=4, layers=2):
        super().__init__()
        self.embed = nn.Embedding(vocabulary, width)
        self.position = nn.Parameter(torch.randn(1, 16, width) * 0.1)
        self.layers = nn.Sequential(
            *[EncoderLayer(width, heads, 64) for _ in range(layers)])
        self.norm = nn.LayerNorm(width)
        self.out = nn.Linear(width, 8)

    def forward(self, tokens):
        x = self.embed(tokens) + self.position[:, :tokens.shape[1]]
        return self.out(self.norm(self.layers(x)).mean(dim=1))


class SmallRecurrent(nn.Module):
    """A bidirectional LSTM feeding a bidirectional GRU, batch first: the
    outputs summed over time plus the GRU's last states."""

    def __init__(self):
        super().__init__()
        self.lstm = nn.LSTM(6, 5, bidirectional=True, batch_first=True)
        self.gru = nn.GRU(10, 4, bidirectional=True, batch_first=True)

    def forward(self, x):
        y, _ = self.lstm(x)
        z, h = self.gru(y)
        return z.sum(dim=1) + h.transpose(0, 1).reshape(x.shape[0], -1)


def main():
    name, folder = sys.argv[1], sys.argv[2]
    torch.manual_seed(0)
    if name == "cnn":
        model = SmallCNN()
        # Batch-norm statistics other than the defaults.
        for module in model.modules():
            if isinstance(module, nn.BatchNorm2d):
                module.running_mean.uniform_(-0.5, 0.5)
                module.running_var.uniform_(0.5, 2.0)
        example = torch.randn(2, 3, 32, 32)
        dynamic = {"x": {0: "batch"}, "y": {0: "batch"}}
    elif name == "transformer":
        model = SmallTransformer()
        example = torch.randint(0, 50, (2, 16), dtype=torch.int64)
        dynamic = None
    elif name == "recurrent":
        model = SmallRecurrent()
        example = torch.randn(2, 7, 6)
        dynamic = None
    else:
        sys.exit(f"unknown model {name}")
    model.eval()
    path = os.path.join(folder, name)
    with torch.no_grad():
        expected = model(example)
        torch.onnx.export(model, (example,), path + ".onnx",
                          opset_version=17, input_names=["x"],
                          output_names=["y"], dynamic_axes=dynamic)
    np.save(path + ".input.npy", example.numpy())
    np.save(path + ".expected.npy", expected.numpy())
    if dynamic:
        other = torch.randn(5, *example.shape[1:])
        with torch.no_grad():
            np.save(path + ".expected5.npy", model(other).numpy())
        np.save(path + ".input5.npy", other.numpy())


if __name__ == "__main__":
    main()
