import { useEffect, useRef, useState } from 'preact/hooks';

interface ConfirmButtonProps {
  /** Visible text of the first button, e.g. "Revoke". */
  label: string;
  /** Its accessible name when the text alone is ambiguous in a list, e.g. "Revoke ci". */
  name?: string;
  question: string;
  confirmLabel: string;
  busy?: boolean;
  onConfirm: () => void | Promise<void>;
}

/** A destructive action asked twice, in place: the question and the confirming button take the focus. */
export function ConfirmButton({ label, name, question, confirmLabel, busy = false, onConfirm }: ConfirmButtonProps) {
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  const firstRef = useRef<HTMLButtonElement>(null);
  const wasAsking = useRef(false);
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
    else if (wasAsking.current) firstRef.current?.focus();
    wasAsking.current = asking;
  }, [asking]);

  if (!asking) {
    return (
      <button type="button" class="button danger-outline" aria-label={name} onClick={() => setAsking(true)} ref={firstRef}>
        {label}
      </button>
    );
  }
  return (
    <span class="confirm" role="group" aria-label={question}>
      <span class="confirm-question">{question}</span>
      <button
        type="button"
        class="button danger"
        ref={confirmRef}
        disabled={busy}
        onClick={async () => {
          await onConfirm();
          setAsking(false);
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" class="button" onClick={() => setAsking(false)}>
        Cancel
      </button>
    </span>
  );
}
