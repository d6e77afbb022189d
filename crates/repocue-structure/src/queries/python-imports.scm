(import_statement name: (dotted_name) @import)

(import_statement name: (aliased_import name: (dotted_name) @import))

(import_from_statement module_name: (_) @import)
