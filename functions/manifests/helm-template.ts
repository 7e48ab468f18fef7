/**
 * Chart templates (`templates/*.yaml`) are Go templates, not YAML: `{{ .Values.replicas }}` reads
 * as a flow mapping and `{{- include ... | nindent 4 }}` breaks the indentation, so the YAML
 * parser or a schema reports something unrelated to the real cause. When a file that cannot be
 * read holds a template action, the error names the action and says to render the chart first.
 */
import { ManifestError } from './manifest-error.ts';

/** A Go template action as Helm charts write them: a field, a variable or a template function. */
const ACTION =
  /\{\{-?\s*(?:[.$]|(?:include|if|else|end|range|with|define|template|toYaml|tpl|printf|required|default)\b)[^\n]*?\}\}/;

interface Action {
  readonly line: number;
  readonly text: string;
}

function firstAction(text: string): Action | undefined {
  const lines = text.split('\n');
  for (const [index, line] of lines.entries()) {
    const match = ACTION.exec(line);
    if (match !== null) return { line: index + 1, text: match[0] };
  }
  return undefined;
}

/**
 * The error to report for `error`: when it is a ManifestError in a file whose text holds a
 * template action, one placed at that action saying to run `helm template`; else `error`.
 */
export function explainUnrenderedTemplate(
  error: unknown,
  files: readonly { readonly file: string; readonly text: string }[],
): unknown {
  if (!(error instanceof ManifestError)) return error;
  const source = files.find(({ file }) => file === error.location.file);
  const action = source === undefined ? undefined : firstAction(source.text);
  if (source === undefined || action === undefined) return error;
  const detail = `unrendered Helm template: ${action.text} is not YAML yet; render the chart first (helm template RELEASE CHART > rendered.yaml) and read the output`;
  return new ManifestError(detail, { file: source.file, line: action.line }, { cause: error });
}
