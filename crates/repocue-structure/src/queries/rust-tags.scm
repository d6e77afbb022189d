; Definitions the shipped tags query lacks.

(const_item name: (identifier) @name) @definition.constant

(static_item name: (identifier) @name) @definition.variable

(impl_item type: (_) @name) @definition.impl

(function_signature_item name: (identifier) @name) @definition.method

(field_declaration_list
  (field_declaration name: (field_identifier) @name) @definition.field)

(enum_variant name: (identifier) @name) @definition.constant

(associated_type name: (type_identifier) @name) @definition.type

; References: associated calls (`Foo::new()`) and type uses.

(call_expression
  function: (scoped_identifier name: (identifier) @name)) @reference.call

(call_expression
  function: (generic_function function: (identifier) @name)) @reference.call

(type_identifier) @name @reference.type

(call_expression
  function: (scoped_identifier path: (identifier) @name)) @reference.type

; Generic parameters are not references.

(type_parameter name: (type_identifier) @local.definition)

; References: items a `use` declaration names (`pub use crate::walk::{Walk, WalkBuilder}`):
; what a crate root re-exports is its public API.

(use_declaration argument: (scoped_identifier name: (identifier) @name) @reference.import)

(use_list (identifier) @name @reference.import)

(use_list (scoped_identifier name: (identifier) @name) @reference.import)

(use_as_clause path: (scoped_identifier name: (identifier) @name) @reference.import)

(use_as_clause path: (identifier) @name @reference.import)
