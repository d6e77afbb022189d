; Definitions the shipped tags query lacks: package-level constants and variables, type
; aliases, struct fields and interface methods.

(source_file
  (const_declaration
    (const_spec name: (identifier) @name) @definition.constant))

(source_file
  (var_declaration
    (var_spec name: (identifier) @name) @definition.variable))

(source_file
  (var_declaration
    (var_spec_list
      (var_spec name: (identifier) @name) @definition.variable)))

(type_alias name: (type_identifier) @name) @definition.type

(field_declaration_list
  (field_declaration name: (field_identifier) @name) @definition.field)

(method_elem name: (field_identifier) @name) @definition.method

; Generic parameters are not references.

(type_parameter_declaration name: (identifier) @local.definition)
