import { ComingSoon } from '../../components/ComingSoon.js';

export default function EnvironmentVariablesScreen() {
  return (
    <ComingSoon
      title="Environment variables"
      description={
        <>
          Values that Passthrough target URLs and header values reference with{' '}
          <code>{'{{#env.<variable_name>.<member>}}'}</code>, per environment.
        </>
      }
      planned={[
        'List, create, change and delete environment variables and their members, per environment.',
        'Keep secret members masked everywhere after they are saved.',
      ]}
    />
  );
}
