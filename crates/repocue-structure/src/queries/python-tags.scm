; Definitions the shipped tags query lacks: class attributes.

(class_definition
  body: (block
    (expression_statement
      (assignment left: (identifier) @name) @definition.field)))

; References: base classes and annotations.

(class_definition
  superclasses: (argument_list (identifier) @name @reference.class))

(type (identifier) @name @reference.type)

(generic_type (identifier) @name @reference.type)

; References: names taken from another module (`from .app import Flask as Flask`): what a
; package root re-exports is its public API.

(import_from_statement
  name: (dotted_name . (identifier) @name) @reference.import)

(import_from_statement
  name: (aliased_import name: (dotted_name . (identifier) @name)) @reference.import)
