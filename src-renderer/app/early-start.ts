/**
 * main.tsx imports this first: the current screen's chunk and the session check are requested as the bundle starts
 * running, side by side, instead of one after the other once the shell has rendered.
 */
import { prefetchStoredIdentity } from '../session/early-identity.js';
import { preloadScreen } from './screen-loaders.js';

const screen = preloadScreen(window.location.pathname);
// The session resumes once the screen's chunk is there as well, so the shell and the screen appear together: a
// screen that suspends after the shell is shown would be revealed no sooner than React's 300 ms fallback throttle.
prefetchStoredIdentity(screen);
