//===- UpstreamDialectPlugin.cpp - An upstream MLIR dialect plugin --------===//
//
// Not a Kiln plugin: what MLIR's --load-dialect-plugin loads. The test_up
// dialect accepts any op of its namespace, in generic form.
//
//===----------------------------------------------------------------------===//

#include "mlir/IR/Dialect.h"
#include "mlir/IR/DialectRegistry.h"
#include "mlir/Support/TypeID.h"
#include "mlir/Tools/Plugins/DialectPlugin.h"

namespace test_up {
class TestUpDialect : public mlir::Dialect {
public:
  explicit TestUpDialect(mlir::MLIRContext *context)
      : Dialect(getDialectNamespace(), context,
                mlir::TypeID::get<TestUpDialect>()) {
    allowUnknownOperations();
  }
  static llvm::StringRef getDialectNamespace() { return "test_up"; }
};
} // namespace test_up

MLIR_DECLARE_EXPLICIT_TYPE_ID(test_up::TestUpDialect)
MLIR_DEFINE_EXPLICIT_TYPE_ID(test_up::TestUpDialect)

extern "C" LLVM_ATTRIBUTE_WEAK mlir::DialectPluginLibraryInfo
mlirGetDialectPluginInfo() {
  return {MLIR_PLUGIN_API_VERSION, "TestUpstreamDialect", "0.1",
          [](mlir::DialectRegistry *registry) {
            registry->insert<test_up::TestUpDialect>();
          }};
}
