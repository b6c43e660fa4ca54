# A project whose one shader does not validate: its build must fail at index.rst's line 10 (the shader's line 3, "0: MOV OUT[0], TEMP[9]").
extensions = ["sphinx_tgsi"]
project = "sphinx-tgsi bad sample"
