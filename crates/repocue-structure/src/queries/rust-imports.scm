(use_declaration argument: (_) @import)

(extern_crate_declaration name: (identifier) @import)
