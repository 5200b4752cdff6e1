import type { AnchorHTMLAttributes, MouseEvent, Ref } from 'react';
import { isPlainLeftClick, navigate } from './history.js';

export interface RouterLinkProps extends AnchorHTMLAttributes<HTMLAnchorElement> {
  href: string;
  ref?: Ref<HTMLAnchorElement>;
}

function isInApp(href: string, target: string | undefined): boolean {
  if (target && target !== '_self') return false;
  const url = new URL(href, window.location.href);
  // Swagger UI and the API are served by the Control Panel, not by the console's router.
  return url.origin === window.location.origin && !/^\/(api|swagger|oauth2)\//.test(url.pathname);
}

/**
 * An anchor that navigates in-app. MUI's Link, Button and ListItemButton render it for `href` (see the theme),
 * so every link keeps a real URL: middle-click, copy link and "open in new tab" still work.
 */
export function RouterLink({ href, onClick, target, ref, ...rest }: RouterLinkProps) {
  const handleClick = (event: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(event);
    if (!isPlainLeftClick(event) || !isInApp(href, target)) return;
    event.preventDefault();
    navigate(href);
  };
  return <a ref={ref} href={href} target={target} onClick={handleClick} {...rest} />;
}
