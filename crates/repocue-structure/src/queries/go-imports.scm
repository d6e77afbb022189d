(import_spec path: (_) @import)
