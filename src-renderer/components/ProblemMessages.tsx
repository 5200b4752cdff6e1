/** The lines under a problem's detail: validation messages and what its extension members add. */
export function ProblemMessages({ messages }: { messages: readonly string[] }) {
  if (messages.length === 0) return null;
  return (
    <ul style={{ margin: '4px 0 0', paddingLeft: 20, overflowWrap: 'anywhere' }}>
      {messages.map((message) => (
        <li key={message}>{message}</li>
      ))}
    </ul>
  );
}
