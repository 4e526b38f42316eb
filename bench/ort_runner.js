// Times an ONNX model in ONNX Runtime (the onnxruntime-node package's CPU
// library), for bench/models.py.
//
//   node ort_runner.js MODULES_DIR MODEL.onnx THREADS WARMUP CALLS \
//       OUTPUT.npy NAME=INPUT.npy...
//
// Loads onnxruntime-node from MODULES_DIR (a folder with node_modules),
// creates a session with THREADS intra-op threads (one inter-op thread,
// every graph optimization), feeds each named input from a .npy file
// (float32 or int64, C order), runs WARMUP untimed calls and CALLS timed
// ones, writes the first output to OUTPUT.npy (every output, when OUTPUT
// holds `{i}`: output i to OUTPUT with `{i}` replaced by i; float32, int64
// or bool inputs and outputs), and prints one JSON line:
// {"median_ms": ..., "min_ms": ..., "times_ms": [...]}.

"use strict";
const fs = require("fs");
const path = require("path");

function readNpy(file) {
  const bytes = fs.readFileSync(file);
  if (bytes.toString("latin1", 1, 6) !== "NUMPY")
    throw new Error(`${file} is not a .npy file`);
  const major = bytes[6];
  const headerLength =
    major === 1 ? bytes.readUInt16LE(8) : bytes.readUInt32LE(8);
  const start = (major === 1 ? 10 : 12) + headerLength;
  const header = bytes.toString("latin1", major === 1 ? 10 : 12, start);
  const descr = /'descr':\s*'([^']+)'/.exec(header)[1];
  if (/'fortran_order':\s*True/.test(header))
    throw new Error(`${file} is in Fortran order`);
  const shape = /'shape':\s*\(([^)]*)\)/
    .exec(header)[1]
    .split(",")
    .map((s) => s.trim())
    .filter((s) => s.length)
    .map(Number);
  const data = bytes.buffer.slice(bytes.byteOffset + start,
                                  bytes.byteOffset + bytes.length);
  if (descr === "<f4") return { type: "float32", data: new Float32Array(data), shape };
  if (descr === "<i8") return { type: "int64", data: new BigInt64Array(data), shape };
  if (descr === "|b1")
    return {type : "bool", data : new Uint8Array(data), shape};
  throw new Error(
      `${file}: element type ${descr} is not float32, int64 or bool`);
}

function writeNpy(file, tensor) {
  const descrs = {float32 : "<f4", int64 : "<i8", bool : "|b1"};
  const descr = descrs[tensor.type];
  if (!descr)
    throw new Error(
        `output of type ${tensor.type} is not float32, int64 or bool`);
  const shape = tensor.dims.length === 1 ? `(${tensor.dims[0]},)`
                                         : `(${tensor.dims.join(", ")})`;
  let header =
      `{'descr': '${descr}', 'fortran_order': False, 'shape': ${shape}, }`;
  const total = 10 + header.length + 1;
  header += " ".repeat((64 - (total % 64)) % 64) + "\n";
  const prefix = Buffer.alloc(10);
  prefix.write("\x93NUMPY", 0, "latin1");
  prefix[6] = 1;
  prefix[7] = 0;
  prefix.writeUInt16LE(header.length, 8);
  const data = Buffer.from(tensor.data.buffer, tensor.data.byteOffset,
                           tensor.data.byteLength);
  fs.writeFileSync(file, Buffer.concat([prefix, Buffer.from(header, "latin1"), data]));
}

async function main() {
  const [modules, model, threads, warmup, calls, output, ...inputs] =
    process.argv.slice(2);
  const ort = require(path.join(modules, "node_modules", "onnxruntime-node"));
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: Number(threads),
    interOpNumThreads: 1,
    graphOptimizationLevel: "all",
  });
  const feeds = {};
  for (const spec of inputs) {
    const [name, file] = spec.split("=");
    const array = readNpy(file);
    feeds[name] = new ort.Tensor(array.type, array.data, array.shape);
  }
  let result;
  for (let i = 0; i < Number(warmup); ++i) result = await session.run(feeds);
  const times = [];
  for (let i = 0; i < Number(calls); ++i) {
    const start = process.hrtime.bigint();
    result = await session.run(feeds);
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  if (output.includes("{i}"))
    session.outputNames.forEach(
        (name, i) => writeNpy(output.replace("{i}", String(i)), result[name]));
  else
    writeNpy(output, result[session.outputNames[0]]);
  const sorted = [...times].sort((a, b) => a - b);
  const median = sorted.length % 2
    ? sorted[(sorted.length - 1) / 2]
    : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2;
  console.log(JSON.stringify({ median_ms: median, min_ms: sorted[0], times_ms: times }));
}

main().catch((error) => {
  console.error(`ort_runner: ${error.message}`);
  process.exit(1);
});
