#!/usr/bin/python3
"""Whole models through ONNX: Kiln against ONNX Runtime and PyTorch.

    /usr/bin/python3 bench/models.py [--build build] [--threads 1,2]
        [--rounds 5] [--calls 20] [--models resnet18,mobilenetv2,bert,mlp]
        [--work DIR] [--ort DIR]

Four models written here in PyTorch with random weights (seeded; nothing
downloaded), exported with torch.onnx.export (opset 17), and the same
.onnx file and inputs run by:

- Kiln: kiln-compile for this machine, timed by kiln-benchmark;
- ONNX Runtime: the CPU library of the npm package onnxruntime-node
  (installed with `npm install --ignore-scripts` into --ort, by default
  build/bench-peers, when missing), timed by bench/ort_runner.js in Node;
- PyTorch: the model itself under torch.inference_mode, timed in a child
  process per thread count (OpenMP and OpenBLAS thread counts are read
  once, at import), OpenBLAS with its AVX-512 kernel where the CPU has
  AVX-512 (AVX2 elsewhere).

The models: resnet18 (ResNet-18 at 224x224, batch 1), mobilenetv2
(MobileNetV2 at 224x224, batch 1), bert (a BERT-base encoder of two
layers, sequence 128: width 768, 12 heads, feed-forward 3072, GELU,
post-layer-norm; token ids in, hidden states out), mlp (batch 64,
1024 -> 4096 -> 4096 -> 1000, ReLU). Rounds alternate the three; a figure
is the median over rounds of each round's median call. Before timing,
Kiln's and ONNX Runtime's outputs are compared with PyTorch's (the largest
absolute difference is printed). Prints a markdown table.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

# Set before numpy or torch load OpenBLAS (see linalg_models.py).
from benchutil import openblas_coretype  # noqa: E402

os.environ["OPENBLAS_CORETYPE"] = openblas_coretype()

import numpy as np  # noqa: E402

from benchutil import cpu_name, run, run_json  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ORT_VERSION = "1.30.0"
MODELS = ["resnet18", "mobilenetv2", "bert", "mlp"]


def build_model(name):
    """The PyTorch module and an example input of model `name`."""
    import torch
    from torch import nn

    torch.manual_seed(0)

    def conv_bn(cin, cout, kernel, stride=1, groups=1, relu6=False,
                act=True):
        layers = [nn.Conv2d(cin, cout, kernel, stride, kernel // 2,
                            groups=groups, bias=False), nn.BatchNorm2d(cout)]
        if act:
            layers.append(nn.ReLU6() if relu6 else nn.ReLU())
        return nn.Sequential(*layers)

    class Basic(nn.Module):
        def __init__(self, cin, cout, stride):
            super().__init__()
            self.body = nn.Sequential(conv_bn(cin, cout, 3, stride),
                                      conv_bn(cout, cout, 3, act=False))
            self.skip = (conv_bn(cin, cout, 1, stride, act=False)
                         if stride != 1 or cin != cout else nn.Identity())

        def forward(self, x):
            return torch.relu(self.body(x) + self.skip(x))

    class Inverted(nn.Module):
        def __init__(self, cin, cout, stride, expand):
            super().__init__()
            hidden = cin * expand
            layers = [conv_bn(cin, hidden, 1, relu6=True)] if expand != 1 else []
            layers += [conv_bn(hidden, hidden, 3, stride, groups=hidden,
                               relu6=True),
                       conv_bn(hidden, cout, 1, act=False)]
            self.body = nn.Sequential(*layers)
            self.residual = stride == 1 and cin == cout

        def forward(self, x):
            y = self.body(x)
            return x + y if self.residual else y

    class Encoder(nn.Module):
        """BERT's layer, attention written out."""

        def __init__(self, width=768, heads=12, hidden=3072):
            super().__init__()
            self.heads = heads
            self.qkv = nn.Linear(width, 3 * width)
            self.proj = nn.Linear(width, width)
            self.norm1 = nn.LayerNorm(width, eps=1e-12)
            self.ff = nn.Sequential(nn.Linear(width, hidden), nn.GELU(),
                                    nn.Linear(hidden, width))
            self.norm2 = nn.LayerNorm(width, eps=1e-12)

        def forward(self, x):
            batch, length, width = x.shape
            q, k, v = self.qkv(x).chunk(3, dim=-1)
            split = lambda t: t.reshape(batch, length, self.heads,
                                        -1).transpose(1, 2)
            q, k, v = split(q), split(k), split(v)
            scores = q @ k.transpose(-2, -1) / (width // self.heads) ** 0.5
            attended = (torch.softmax(scores, dim=-1) @ v).transpose(1, 2)
            x = self.norm1(x + self.proj(attended.reshape(batch, length,
                                                          width)))
            return self.norm2(x + self.ff(x))

    class Bert(nn.Module):
        def __init__(self, layers=2, width=768, vocabulary=30522):
            super().__init__()
            self.words = nn.Embedding(vocabulary, width)
            self.positions = nn.Parameter(torch.randn(1, 512, width) * 0.02)
            self.norm = nn.LayerNorm(width, eps=1e-12)
            self.layers = nn.Sequential(*[Encoder() for _ in range(layers)])

        def forward(self, tokens):
            x = self.words(tokens) + self.positions[:, :tokens.shape[1]]
            return self.layers(self.norm(x))

    if name == "resnet18":
        blocks, cin = [], 64
        for cout, stride in [(64, 1), (64, 1), (128, 2), (128, 1), (256, 2),
                             (256, 1), (512, 2), (512, 1)]:
            blocks.append(Basic(cin, cout, stride))
            cin = cout
        model = nn.Sequential(conv_bn(3, 64, 7, 2), nn.MaxPool2d(3, 2, 1),
                              *blocks, nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                              nn.Linear(512, 1000))
        example = torch.randn(1, 3, 224, 224)
    elif name == "mobilenetv2":
        layers, cin = [conv_bn(3, 32, 3, 2, relu6=True)], 32
        for expand, cout, repeats, stride in [
                (1, 16, 1, 1), (6, 24, 2, 2), (6, 32, 3, 2), (6, 64, 4, 2),
                (6, 96, 3, 1), (6, 160, 3, 2), (6, 320, 1, 1)]:
            for i in range(repeats):
                layers.append(Inverted(cin, cout, stride if i == 0 else 1,
                                       expand))
                cin = cout
        layers += [conv_bn(320, 1280, 1, relu6=True),
                   nn.AdaptiveAvgPool2d(1), nn.Flatten(),
                   nn.Linear(1280, 1000)]
        model = nn.Sequential(*layers)
        example = torch.randn(1, 3, 224, 224)
    elif name == "bert":
        model = Bert()
        example = torch.randint(0, 30522, (1, 128), dtype=torch.int64)
    elif name == "mlp":
        model = nn.Sequential(nn.Linear(1024, 4096), nn.ReLU(),
                              nn.Linear(4096, 4096), nn.ReLU(),
                              nn.Linear(4096, 1000))
        example = torch.randn(64, 1024)
    else:
        sys.exit(f"unknown model {name}")
    # Batch-norm statistics other than the defaults.
    for module in model.modules():
        if isinstance(module, nn.BatchNorm2d):
            module.running_mean.uniform_(-0.2, 0.2)
            module.running_var.uniform_(0.5, 1.5)
    return model.eval(), example


def export(name, work):
    """Writes NAME.onnx, NAME.input.npy and NAME.expected.npy (PyTorch's
    output) under `work`."""
    import torch
    model, example = build_model(name)
    path = os.path.join(work, name)
    with torch.no_grad():
        expected = model(example)
        torch.onnx.export(model, (example,), path + ".onnx",
                          opset_version=17, input_names=["x"],
                          output_names=["y"])
    np.save(path + ".input.npy", example.numpy())
    np.save(path + ".expected.npy", expected.numpy())


def torch_worker(args):
    """Child process: times model `args.worker` on `args.threads` threads
    and prints one JSON line."""
    import time
    import torch
    torch.set_num_threads(args.threads)
    model, example = build_model(args.worker)
    example = torch.from_numpy(np.load(os.path.join(
        args.work, args.worker + ".input.npy")))
    variants = {"NCHW" if example.dim() == 4 else "default": (model, example)}
    if example.dim() == 4:
        variants["channels_last"] = (
            model.to(memory_format=torch.channels_last),
            example.contiguous(memory_format=torch.channels_last))
    best = None
    with torch.inference_mode():
        for variant, (module, x) in variants.items():
            for _ in range(3):
                module(x)
            times = []
            for _ in range(args.calls):
                start = time.perf_counter()
                module(x)
                times.append((time.perf_counter() - start) * 1e3)
            median = statistics.median(times)
            if best is None or median < best[0]:
                best = (median, variant)
    print(json.dumps({"median_ms": best[0], "variant": best[1]}))


def ensure_ort(folder):
    """onnxruntime-node under `folder`, installed from npm when missing."""
    if os.path.isdir(os.path.join(folder, "node_modules", "onnxruntime-node")):
        return
    if not shutil.which("npm"):
        sys.exit("models.py needs Node.js and npm for ONNX Runtime")
    os.makedirs(folder, exist_ok=True)
    print(f"installing onnxruntime-node@{ORT_VERSION} into {folder}",
          file=sys.stderr)
    run(["npm", "install", "--prefix", folder, "--ignore-scripts",
         "--no-audit", "--no-fund", f"onnxruntime-node@{ORT_VERSION}"])


def largest_difference(path, expected):
    actual = np.load(path)
    return float(np.max(np.abs(actual.astype(np.float64) - expected)))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--build", default="build")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=20)
    parser.add_argument("--models", default=",".join(MODELS))
    parser.add_argument("--work")
    parser.add_argument("--ort")
    parser.add_argument("--worker")
    args = parser.parse_args()
    threads = [int(t) for t in args.threads.split(",")]
    if args.worker:
        args.threads = threads[0]
        return torch_worker(args)

    models = args.models.split(",")
    ort_dir = args.ort or os.path.join(args.build, "bench-peers")
    ensure_ort(ort_dir)
    work = args.work or tempfile.mkdtemp(prefix="kiln-models-")
    os.makedirs(work, exist_ok=True)
    # ONNX Runtime's library writes a log file per process into TMPDIR
    # (mat-debug-PID.log): keep them in the work folder.
    scratch = os.path.join(work, "tmp")
    os.makedirs(scratch, exist_ok=True)
    ort_env = dict(os.environ, TMPDIR=scratch)
    compile_tool = os.path.join(args.build, "bin", "kiln-compile")
    benchmark = os.path.join(args.build, "bin", "kiln-benchmark")
    kiln_run = os.path.join(args.build, "bin", "kiln-run")
    try:
        for name in models:
            export(name, work)
            path = os.path.join(work, name)
            run([compile_tool, path + ".onnx", "-o", path + ".so"])
            expected = np.load(path + ".expected.npy").astype(np.float64)
            run([kiln_run, path + ".so", f"--input=@{path}.input.npy",
                 f"--output=@{path}.kiln.npy"])
            run_json(["node", os.path.join(HERE, "ort_runner.js"),
                      os.path.abspath(ort_dir), path + ".onnx", "1", "0", "1",
                      path + ".ort.npy", f"x={path}.input.npy"], env=ort_env)
            print(f"{name}: largest difference from PyTorch: Kiln "
                  f"{largest_difference(path + '.kiln.npy', expected):.3g}, "
                  f"ONNX Runtime "
                  f"{largest_difference(path + '.ort.npy', expected):.3g} "
                  f"(outputs up to {np.max(np.abs(expected)):.3g})",
                  file=sys.stderr)

        times = {}  # (model, threads, peer) -> [round medians]
        variants = {}
        for round_index in range(args.rounds):
            for name in models:
                path = os.path.join(work, name)
                for t in threads:
                    kiln = run_json([benchmark, path + ".so",
                                     f"--input=@{path}.input.npy",
                                     f"--threads={t}", "--warmup=3",
                                     f"--repetitions={args.calls}", "--json"])
                    times.setdefault((name, t, "kiln"), []).append(
                        kiln["median_ms"])
                    ort = run_json(["node", os.path.join(HERE, "ort_runner.js"),
                                    os.path.abspath(ort_dir), path + ".onnx",
                                    str(t), "3", str(args.calls),
                                    path + ".ort.npy", f"x={path}.input.npy"],
                                   env=ort_env)
                    times.setdefault((name, t, "ort"), []).append(
                        ort["median_ms"])
                    env = dict(os.environ, OMP_NUM_THREADS=str(t),
                               OPENBLAS_NUM_THREADS=str(t),
                               OMP_WAIT_POLICY="PASSIVE")
                    pt = run_json([sys.executable, os.path.abspath(__file__),
                                   "--worker", name, "--threads", str(t),
                                   "--work", work, "--calls", str(args.calls)],
                                  env=env)
                    times.setdefault((name, t, "torch"), []).append(
                        pt["median_ms"])
                    variants[(name, t)] = pt["variant"]
            print(f"round {round_index + 1} of {args.rounds} done",
                  file=sys.stderr)
    finally:
        if not args.work:
            shutil.rmtree(work, ignore_errors=True)

    print(f"\n{cpu_name()}, {os.cpu_count()} cores; median of {args.rounds} "
          f"rounds of {args.calls} calls\n")
    print("| model | threads | Kiln ms | ONNX Runtime ms | PyTorch ms "
          "| ORT / Kiln time | PyTorch / Kiln time |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    for name in models:
        for t in threads:
            kiln = statistics.median(times[(name, t, "kiln")])
            ort = statistics.median(times[(name, t, "ort")])
            pt = statistics.median(times[(name, t, "torch")])
            print(f"| {name} | {t} | {kiln:.2f} | {ort:.2f} | {pt:.2f} "
                  f"({variants[(name, t)]}) | {ort / kiln:.2f}x "
                  f"| {pt / kiln:.2f}x |")


if __name__ == "__main__":
    main()
