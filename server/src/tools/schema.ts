/**
 * The small part of JSON Schema the tools' inputs use (objects of strings, whole numbers, lists of
 * strings, enums), and a check of a value against it. The same schemas are what an MCP client and
 * VS Code are shown, so a tool's input is checked by what it declares, whoever calls it.
 */

export interface JsonSchema {
  type?: 'object' | 'string' | 'integer' | 'number' | 'boolean' | 'array';
  description?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
  items?: JsonSchema;
  enum?: readonly string[];
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  maxItems?: number;
  default?: unknown;
}

/** What is wrong with `value` against `schema` (the first problem, naming where), or undefined. */
export function schemaProblem(value: unknown, schema: JsonSchema, at = 'input'): string | undefined {
  switch (schema.type) {
    case 'object': {
      if (typeof value !== 'object' || value === null || Array.isArray(value)) return `${at} must be an object`;
      const record = value as Record<string, unknown>;
      for (const name of schema.required ?? []) if (record[name] === undefined) return `${at}.${name} is required`;
      for (const [name, v] of Object.entries(record)) {
        const inner = schema.properties?.[name];
        if (!inner) {
          if (schema.additionalProperties === false) return `${at}.${name} is not a parameter of this tool`;
          continue;
        }
        if (v === undefined) continue;
        const problem = schemaProblem(v, inner, `${at}.${name}`);
        if (problem) return problem;
      }
      return undefined;
    }
    case 'string':
      if (typeof value !== 'string') return `${at} must be a string`;
      if (schema.minLength !== undefined && value.length < schema.minLength)
        return `${at} must have at least ${schema.minLength} characters`;
      if (schema.maxLength !== undefined && value.length > schema.maxLength)
        return `${at} must have at most ${schema.maxLength} characters`;
      if (schema.enum && !schema.enum.includes(value)) return `${at} must be one of ${schema.enum.join(', ')}`;
      return undefined;
    case 'integer':
    case 'number':
      if (typeof value !== 'number' || !Number.isFinite(value)) return `${at} must be a number`;
      if (schema.type === 'integer' && !Number.isInteger(value)) return `${at} must be a whole number`;
      if (schema.minimum !== undefined && value < schema.minimum) return `${at} must be at least ${schema.minimum}`;
      if (schema.maximum !== undefined && value > schema.maximum) return `${at} must be at most ${schema.maximum}`;
      return undefined;
    case 'boolean':
      return typeof value === 'boolean' ? undefined : `${at} must be true or false`;
    case 'array': {
      if (!Array.isArray(value)) return `${at} must be a list`;
      if (schema.maxItems !== undefined && value.length > schema.maxItems)
        return `${at} must have at most ${schema.maxItems} items`;
      for (let i = 0; i < value.length; i++) {
        const problem = schema.items ? schemaProblem(value[i], schema.items, `${at}[${i}]`) : undefined;
        if (problem) return problem;
      }
      return undefined;
    }
    default:
      return undefined;
  }
}
