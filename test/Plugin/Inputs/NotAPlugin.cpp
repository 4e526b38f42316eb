//===- NotAPlugin.cpp - A shared object that is not a Kiln plugin ---------===//

extern "C" __attribute__((visibility("default"))) int not_a_plugin() {
  return 42;
}
