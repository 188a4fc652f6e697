import { useState } from 'preact/hooks';

/** The clipboard API needs a secure context; on plain http from another machine the old way still works. */
async function copyText(text: string): Promise<boolean> {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.className = 'visually-hidden';
    document.body.append(area);
    area.select();
    const copied = document.execCommand('copy');
    area.remove();
    return copied;
  }
}

/** Copies `text`; the outcome is said in a live region next to the button. */
export function CopyButton({ text, label = 'Copy', name }: { text: string; label?: string; name?: string }) {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  return (
    <span class="copy">
      <button type="button" class="button" aria-label={name} onClick={async () => setState((await copyText(text)) ? 'copied' : 'failed')}>
        {label}
      </button>
      <span role="status" class="copy-status">
        {state === 'copied' ? 'Copied' : state === 'failed' ? 'Could not copy: select the text and copy it' : ''}
      </span>
    </span>
  );
}
