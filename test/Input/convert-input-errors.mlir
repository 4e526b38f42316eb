// RUN: kiln-opt %s --split-input-file --kiln-convert-input=input-type=onnx -verify-diagnostics

// expected-error @+1 {{unknown input type 'onnx'; known input types: auto, none, tosa}}
module {
}

