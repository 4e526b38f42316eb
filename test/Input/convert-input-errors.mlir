// RUN: kiln-opt %s --split-input-file --kiln-convert-input=input-type=caffe -verify-diagnostics

// expected-error @+1 {{unknown input type 'caffe'; known input types: auto, none, tosa}}
module {
}

