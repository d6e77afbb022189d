; Definitions the shipped tags query lacks: macros, unions, enumerators, struct fields,
; typedef names hidden in declarators, and file-scope variables. Patterns without @name
; get their names from the declarators (see `names` in src/lang/c.rs).

(preproc_def name: (identifier) @name) @definition.macro

(preproc_function_def name: (identifier) @name) @definition.macro

(union_specifier name: (type_identifier) @name body: (_)) @definition.class

(enumerator name: (identifier) @name) @definition.constant

(field_declaration) @definition.field

(type_definition) @definition.type

(translation_unit (declaration) @definition.variable)

(preproc_if (declaration) @definition.variable)

(preproc_ifdef (declaration) @definition.variable)

(preproc_else (declaration) @definition.variable)

(preproc_elif (declaration) @definition.variable)

(linkage_specification body: (declaration_list (declaration) @definition.variable))

; References: calls and type uses.

(call_expression function: (identifier) @name) @reference.call

(type_identifier) @name @reference.type
