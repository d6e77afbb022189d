(preproc_include path: (_) @import)
