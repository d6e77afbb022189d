; Definitions the shipped tags query lacks: constants and attribute accessors.

(assignment left: (constant) @name) @definition.constant

; `attr_reader :name` and friends (the method name is checked in src/lang/ruby.rs).
(call
  method: (identifier)
  arguments: (argument_list (simple_symbol) @name)) @definition.field

; Local variables and parameters: the shipped query reports every bare identifier as a
; call unless it is a local; names captured here are never reported as references.

(assignment left: (identifier) @local.definition)

(operator_assignment left: (identifier) @local.definition)

(method_parameters (identifier) @local.definition)

(lambda_parameters (identifier) @local.definition)

(block_parameters (identifier) @local.definition)

(optional_parameter name: (identifier) @local.definition)

(keyword_parameter name: (identifier) @local.definition)

(splat_parameter name: (identifier) @local.definition)

(block_parameter name: (identifier) @local.definition)
