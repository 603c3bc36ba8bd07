import { z } from 'zod';

/** The error body of docs/http-contract.md "Errors". 401, 403 and 500 carry only statusCode and error. */
export const ErrorBody = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.array(z.string()).optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

export const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  409: 'Conflict',
  413: 'Payload Too Large',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  503: 'Service Unavailable',
};

const BARE_STATUSES = new Set([401, 403, 500]);

export function errorBody(statusCode: number, messages: string[] = []): ErrorBody {
  const error = STATUS_TEXT[statusCode] ?? 'Error';
  if (BARE_STATUSES.has(statusCode)) return { statusCode, error };
  return { statusCode, error, message: messages.length ? messages : [error] };
}

/** Whether the value at an issue's path was absent (zod 4 leaves `input` out of issues by default). */
function isMissing(issue: z.core.$ZodIssue): boolean {
  if ('input' in issue) return issue.input === undefined;
  return /received undefined$/.test(issue.message);
}

/** One plain-language message per zod issue, naming the field (`zip_code must be ...`). */
export function formatIssues(issues: readonly z.core.$ZodIssue[], root = 'body'): string[] {
  const out: string[] = [];
  // zod runs length checks on a value of the wrong type too ("must be an array" and "at most 9 characters"): the type is the problem.
  const wrongType = new Set(issues.filter((i) => i.code === 'invalid_type').map((i) => i.path.map(String).join('.')));
  for (const issue of issues) {
    const field = issue.path.length ? issue.path.map(String).join('.') : root;
    if (issue.code !== 'invalid_type' && wrongType.has(issue.path.map(String).join('.'))) continue;
    if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && isMissing(issue)) {
      out.push(`${field} is required`);
      continue;
    }
    switch (issue.code) {
      case 'unrecognized_keys':
        for (const key of issue.keys) out.push(`${issue.path.length ? `${field}.` : ''}${key} is not an allowed field`);
        break;
      case 'invalid_type':
        out.push(`${field} must be ${article(issue.expected)}`);
        break;
      case 'invalid_value':
        out.push(`${field} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`);
        break;
      case 'too_small':
        out.push(
          issue.origin === 'string'
            ? `${field} must not be empty`
            : issue.origin === 'array'
              ? `${field} must have at least ${issue.minimum} element(s)`
              : `${field} must be ${issue.inclusive ? '>=' : '>'} ${issue.minimum}`,
        );
        break;
      case 'too_big':
        out.push(
          issue.origin === 'string'
            ? `${field} must be at most ${issue.maximum} characters`
            : issue.origin === 'array'
              ? `${field} must have at most ${issue.maximum} element(s)`
              : `${field} must be ${issue.inclusive ? '<=' : '<'} ${issue.maximum}`,
        );
        break;
      default:
        out.push(`${field} ${lowerFirst(issue.message)}`);
    }
  }
  return out;
}

function article(expected: string): string {
  if (expected === 'int') return 'an integer';
  return /^[aeiou]/.test(expected) ? `an ${expected}` : `a ${expected}`;
}

function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}
