import Drawer from '@mui/material/Drawer';
import List from '@mui/material/List';
import ListItem from '@mui/material/ListItem';
import ListItemButton from '@mui/material/ListItemButton';
import ListItemIcon from '@mui/material/ListItemIcon';
import ListItemText from '@mui/material/ListItemText';
import Toolbar from '@mui/material/Toolbar';
import { RouterLink } from '../router/RouterLink.js';
import { SCREEN_ROUTES, type ScreenRoute } from './routes.js';

export const NAVIGATION_WIDTH = 232;

export function NavigationDrawer({ active }: { active: ScreenRoute | undefined }) {
  return (
    <Drawer
      variant="permanent"
      sx={{
        width: NAVIGATION_WIDTH,
        flexShrink: 0,
        '& .MuiDrawer-paper': { width: NAVIGATION_WIDTH, boxSizing: 'border-box' },
      }}
    >
      <Toolbar />
      <nav aria-label="Main">
        <List>
          {SCREEN_ROUTES.map((route) => {
            const Icon = route.icon;
            const current = route === active;
            return (
              <ListItem key={route.path} disablePadding>
                <ListItemButton
                  component={RouterLink}
                  href={route.path}
                  selected={current}
                  aria-current={current ? 'page' : undefined}
                >
                  <ListItemIcon>
                    <Icon />
                  </ListItemIcon>
                  <ListItemText primary={route.label} />
                </ListItemButton>
              </ListItem>
            );
          })}
        </List>
      </nav>
    </Drawer>
  );
}
