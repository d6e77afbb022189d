; Definitions the shipped tags query lacks: class attributes, and module-level names bound in
; a conditional or a `try` (requests' `preferred_clock`, set in both branches of `if
; sys.platform`; its type aliases under `if TYPE_CHECKING:`), which no search found.

(module
  (if_statement
    consequence: (block
      (expression_statement (assignment left: (identifier) @name) @definition.constant))))

(module
  (if_statement
    alternative: [
      (else_clause body: (block
        (expression_statement (assignment left: (identifier) @name) @definition.constant)))
      (elif_clause consequence: (block
        (expression_statement (assignment left: (identifier) @name) @definition.constant)))
    ]))

(module
  (try_statement
    body: (block
      (expression_statement (assignment left: (identifier) @name) @definition.constant))))

(module
  (try_statement
    (except_clause (block
      (expression_statement (assignment left: (identifier) @name) @definition.constant)))))

(class_definition
  body: (block
    (expression_statement
      (assignment left: (identifier) @name) @definition.field)))

; References: a decorator applied without a call (`@define`, `@attr.define`): attrs' `define`,
; its main API, was used by no file the way most of its users write it.

(decorator (identifier) @name @reference.call)

(decorator (attribute attribute: (identifier) @name) @reference.call)

; References: base classes and annotations.

(class_definition
  superclasses: (argument_list (identifier) @name @reference.class))

(type (identifier) @name @reference.type)

; A module-qualified annotation (`-> black.Mode`, `m: pkg.mode.Mode`) names the class as a
; bare one does: blackd's `-> black.Mode` was no use of `Mode`.

(type (attribute attribute: (identifier) @name) @reference.type)

(class_definition
  superclasses: (argument_list (attribute attribute: (identifier) @name) @reference.class))

(generic_type (identifier) @name @reference.type)

; References: names taken from another module (`from .app import Flask as Flask`): what a
; package root re-exports is its public API.

(import_from_statement
  name: (dotted_name . (identifier) @name) @reference.import)

(import_from_statement
  name: (aliased_import name: (dotted_name . (identifier) @name)) @reference.import)

; Parameters: a use of one on its own (`await send(message)`) is no use of a definition of
; that name.

(parameters (identifier) @local.definition)

(lambda_parameters (identifier) @local.definition)

(typed_parameter (identifier) @local.definition)

(default_parameter name: (identifier) @local.definition)

(typed_default_parameter name: (identifier) @local.definition)
