// The outcome line under an organization settings form: the server's refusal as it words it
// (an alert), or what was done (a status).
export type StatusText = { text: string; error: boolean } | null;

export const Status = ({ status }: { status: StatusText }) =>
  status ? (
    <p class={status.error ? 'settings-error' : 'settings-status'} role={status.error ? 'alert' : 'status'}>
      {status.text}
    </p>
  ) : null;
