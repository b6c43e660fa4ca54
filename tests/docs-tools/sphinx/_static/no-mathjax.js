// The sample project works offline: tgsi.rst's formulas stay TeX source (no MathJax fetched from a CDN).
