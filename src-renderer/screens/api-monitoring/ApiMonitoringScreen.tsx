import { ComingSoon } from '../../components/ComingSoon.js';

export default function ApiMonitoringScreen() {
  return (
    <ComingSoon
      title="API monitoring"
      description="Passthrough requests, and requests that did not reach a valid exposed endpoint, as the agent groups recorded them."
      planned={[
        'Browse and filter requests by API, operation, status and time.',
        'See request rates, error rates and latency over time.',
      ]}
    />
  );
}
