; Definitions the shipped tags query lacks: constants, enums and their cases.

(const_element (name) @name) @definition.constant

(enum_declaration name: (name) @name) @definition.enum

(enum_case name: (name) @name) @definition.constant

; References: types in signatures and base classes.

(named_type (name) @name) @reference.type

(base_clause (name) @name) @reference.class
