/**
 * Form fields that show their own errors: the message beside the field (linked with
 * aria-describedby, the field marked aria-invalid) and the value as it was typed. `prefix` keeps
 * ids unique where one page has several forms with the same fields.
 */
import { html, type SafeHtml } from '../html.js';

export type Values = Record<string, string | string[] | undefined>;
export type Errors = Record<string, string[]>;

export interface FieldState {
  values: Values;
  errors: Errors;
  prefix?: string;
}

const idOf = (s: FieldState, name: string) => `${s.prefix ?? ''}${name}`;
const valueOf = (s: FieldState, name: string) => {
  const v = s.values[name];
  return Array.isArray(v) ? (v[0] ?? '') : (v ?? '');
};

function errorText(s: FieldState, name: string): SafeHtml | '' {
  const messages = s.errors[name];
  return messages?.length ? html`<p class="field-error" id="${idOf(s, name)}-error">${messages.join('; ')}</p>` : '';
}

function invalid(s: FieldState, name: string): SafeHtml | '' {
  return s.errors[name]?.length ? html` aria-invalid="true" aria-describedby="${idOf(s, name)}-error"` : '';
}

export function textField(
  s: FieldState,
  name: string,
  label: string,
  options: { type?: 'text' | 'date'; required?: boolean; hint?: string; inputmode?: 'decimal' | 'numeric'; maxlength?: number; placeholder?: string } = {},
): SafeHtml {
  const id = idOf(s, name);
  return html`<div class="field">
  <label for="${id}">${label}</label>
  ${options.hint ? html`<p class="hint">${options.hint}</p>` : ''}
  <input id="${id}" name="${name}" type="${options.type ?? 'text'}" value="${valueOf(s, name)}" autocomplete="off"${options.required ? html` required` : ''}${
    options.inputmode ? html` inputmode="${options.inputmode}"` : ''
  }${options.maxlength ? html` maxlength="${options.maxlength}"` : ''}${
    options.placeholder ? html` placeholder="${options.placeholder}"` : ''
  }${invalid(s, name)}>
  ${errorText(s, name)}
</div>`;
}

export function textArea(s: FieldState, name: string, label: string): SafeHtml {
  const id = idOf(s, name);
  return html`<div class="field">
  <label for="${id}">${label}</label>
  <textarea id="${id}" name="${name}" rows="2"${invalid(s, name)}>${valueOf(s, name)}</textarea>
  ${errorText(s, name)}
</div>`;
}

export function selectField(
  s: FieldState,
  name: string,
  label: string,
  choices: readonly (readonly [string, string])[],
  options: { hint?: string } = {},
): SafeHtml {
  const id = idOf(s, name);
  const current = valueOf(s, name);
  return html`<div class="field">
  <label for="${id}">${label}</label>
  ${options.hint ? html`<p class="hint">${options.hint}</p>` : ''}
  <select id="${id}" name="${name}"${invalid(s, name)}>${choices.map(
    ([value, text]) => html`<option value="${value}"${value === current ? html` selected` : ''}>${text}</option>`,
  )}</select>
  ${errorText(s, name)}
</div>`;
}

/** A group of checkboxes sharing one name; each checked value is sent. */
export function checkboxes(s: FieldState, name: string, legend: string, choices: readonly (readonly [string, string])[]): SafeHtml {
  const raw = s.values[name];
  const checked = new Set(Array.isArray(raw) ? raw : raw ? [raw] : []);
  return html`<fieldset class="field"${invalid(s, name)}>
  <legend>${legend}</legend>
  ${choices.map(
    ([value, text]) => html`<label class="check"><input type="checkbox" name="${name}" value="${value}"${checked.has(value) ? html` checked` : ''}>
      <span>${text}</span></label>`,
  )}
  ${errorText(s, name)}
</fieldset>`;
}

export function fileField(s: FieldState, name: string, label: string, options: { accept?: string; hint?: string; required?: boolean } = {}): SafeHtml {
  const id = idOf(s, name);
  return html`<div class="field">
  <label for="${id}">${label}</label>
  ${options.hint ? html`<p class="hint">${options.hint}</p>` : ''}
  <input id="${id}" name="${name}"
    type="file"${options.accept ? html` accept="${options.accept}"` : ''}${options.required ? html` required` : ''}${invalid(s, name)}>
  ${errorText(s, name)}
</div>`;
}

/** The errors no field shows, at the top of the form. */
export function generalErrors(messages: string[], lead = 'Nothing was saved.'): SafeHtml | '' {
  if (!messages.length) return '';
  const list = messages.length === 1 ? html`<p>${messages[0]}</p>` : html`<ul>${messages.map((m) => html`<li>${m}</li>`)}</ul>`;
  return html`<div class="error" role="alert"><p><strong>${lead}</strong></p>${list}</div>`;
}
