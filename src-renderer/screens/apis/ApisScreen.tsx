import { lazy } from 'react';
import NotFoundScreen from '../not-found/NotFoundScreen.js';
import { useLocation } from '../../router/hooks.js';
import { apisViewOf } from './api-paths.js';
import { ApiDetailsView } from './details/ApiDetailsView.js';
import { ApiListView } from './list/ApiListView.js';

const PassthroughEditorScreen = lazy(() => import('./passthrough-editor/PassthroughEditorScreen.js'));

/** `/apis`, `/apis/<id>` and `/apis/<id>/passthrough`. */
export default function ApisScreen() {
  const { pathname } = useLocation();
  const view = apisViewOf(pathname);
  switch (view.kind) {
    case 'list':
      return <ApiListView />;
    case 'details':
      return <ApiDetailsView key={view.apiId} apiId={view.apiId} />;
    case 'passthrough':
      return <PassthroughEditorScreen />;
    case 'unknown':
      return <NotFoundScreen />;
  }
}
