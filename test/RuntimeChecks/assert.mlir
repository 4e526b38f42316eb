// RUN: kiln-opt %s --split-input-file --canonicalize | FileCheck %s

// An assertion that holds goes away; one that may fail stays.
// CHECK-LABEL: func.func @folds
// CHECK-NOT:     kiln.assert %true
// CHECK:         kiln.assert %{{.+}}, "may fail"
func.func @folds(%n: index) {
  %true = arith.constant true
  kiln.assert %true, "always"
  %same = arith.cmpi eq, %n, %n : index
  kiln.assert %same, "equal to itself"
  %c4 = arith.constant 4 : index
  %four = arith.cmpi eq, %n, %c4 : index
  kiln.assert %four, "may fail"
  return
}
