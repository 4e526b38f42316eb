//===- NestingDepthTest.cpp - The bracket-depth scan before parsing -------===//

#include "kiln/Support/NestingDepth.h"
#include "gtest/gtest.h"

#include <string>

using namespace kiln;

static std::string nest(unsigned depth, const std::string &open,
                        const std::string &close) {
  std::string text;
  for (unsigned i = 0; i < depth; ++i)
    text += open;
  for (unsigned i = 0; i < depth; ++i)
    text += close;
  return text;
}

TEST(NestingDepth, CountsEveryBracketKind) {
  EXPECT_EQ(findExcessiveNesting("{([<>])}", 4), std::nullopt);
  EXPECT_EQ(findExcessiveNesting("{([<>])}", 3), 3u);
  EXPECT_EQ(findExcessiveNesting(nest(1000, "[", "]")), std::nullopt);
  EXPECT_EQ(findExcessiveNesting(nest(1001, "[", "]")), 1000u);
  EXPECT_EQ(findExcessiveNesting(nest(20000, "tensor<", ">")), 1000u * 7 + 6);
}

TEST(NestingDepth, SiblingsDoNotAddUp) {
  std::string text;
  for (int i = 0; i < 5000; ++i)
    text += "func.func @f(%a: tensor<4xf32>) { }\n";
  EXPECT_EQ(findExcessiveNesting(text, 3), std::nullopt);
}

TEST(NestingDepth, ArrowsAndComparisonsAreNotBrackets) {
  // `->` closes nothing, `>=` and `<=` open nothing.
  EXPECT_EQ(findExcessiveNesting("(d0) -> (d0)", 1), std::nullopt);
  EXPECT_EQ(findExcessiveNesting("affine_set<(d0) : (d0 >= 0)>", 2),
            std::nullopt);
  std::string arrows;
  for (int i = 0; i < 3000; ++i)
    arrows += "<= ";
  EXPECT_EQ(findExcessiveNesting(arrows, 1), std::nullopt);
  // `>>` closes two.
  EXPECT_EQ(findExcessiveNesting("tensor<tensor<f32>> tensor<tensor<f32>>", 2),
            std::nullopt);
}

TEST(NestingDepth, StringsAndCommentsDoNotCount) {
  std::string deep = nest(2000, "{", "}");
  EXPECT_EQ(findExcessiveNesting("\"" + deep + "\""), std::nullopt);
  EXPECT_EQ(findExcessiveNesting("// " + deep + "\n{}"), std::nullopt);
  // An escaped quote does not end the string.
  EXPECT_EQ(findExcessiveNesting("\"\\\"" + deep + "\"", 5), std::nullopt);
  // A comment ends at its line: the brackets after it count.
  EXPECT_EQ(findExcessiveNesting("// x\n((", 1), 6u);
}

TEST(NestingDepth, StrayClosersAndUnterminatedText) {
  // Closers without openers are the parser's to report, and do not let
  // later nesting go unnoticed.
  EXPECT_EQ(findExcessiveNesting("}}}}(((", 2), 6u);
  EXPECT_EQ(findExcessiveNesting("\"unterminated {{{{", 1), std::nullopt);
  EXPECT_EQ(findExcessiveNesting("", 0), std::nullopt);
  EXPECT_EQ(findExcessiveNesting("-", 0), std::nullopt);
}
