import { Box, Button, Menu } from '@mantine/core';
import { routePath, visibleMenu, type MenuItem, type MenuItemId } from '@pakt/domain';
import { Fragment } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useSession } from '../../api/session-store';
import { ADMIN_SECTION_OF_MENU_ITEM, BUILT_MENU_ITEMS, effectiveRole, usePermissionSettings } from '../../api/access';
import { MenuIcon } from '../../ui/icons';

type Underscored<T extends string> = T extends `${infer A}.${infer B}` ? `${A}_${B}` : T;

/** i18next reads dots as nesting, and 'compose' is both an item and a parent, so sub-ids use '_'. */
export const menuLabelKey = (item: MenuItem) => `menu.${item.id.replace('.', '_') as Underscored<MenuItemId>}` as const;

/** Where a built item leads: its route, and for an /admin sub-item the section of /admin it is. */
function menuItemPath(item: MenuItem): string {
  const section = ADMIN_SECTION_OF_MENU_ITEM[item.id];
  return section ? `${routePath(item.route!)}?section=${section}` : routePath(item.route!);
}

/**
 * Spec section 2, menu items: what `visibleMenu(role, settings)` gives the current tenant's role,
 * as one drop-down (the header has no room for eleven items on a phone). Settings are the public
 * feature flags over the permission defaults.
 */
export function MainMenu() {
  const { t } = useTranslation();
  const session = useSession();
  const { settings } = usePermissionSettings();
  const role = session ? effectiveRole(session) : null;
  if (!role) return null;
  const items = visibleMenu(role, settings);
  if (items.length === 0) return null;

  const entry = (item: MenuItem, nested = false) => {
    const built = item.route !== undefined && BUILT_MENU_ITEMS.has(item.id);
    const label = t(menuLabelKey(item));
    return built ? (
      <Menu.Item key={item.id} component={Link} to={menuItemPath(item)} pl={nested ? 'xl' : undefined}>
        {label}
      </Menu.Item>
    ) : (
      <Menu.Item key={item.id} disabled pl={nested ? 'xl' : undefined} rightSection={<span>{t('menu.soon')}</span>}>
        {label}
      </Menu.Item>
    );
  };

  return (
    // Fixed like the header it hangs from (an absolute dropdown moves with the page's scroll); a
    // long menu scrolls inside itself, since the page's scroll no longer reaches it.
    <Menu position="bottom-start" width={260} shadow="md" withinPortal floatingStrategy="fixed">
      <Menu.Target>
        <Button variant="subtle" color="gray" px="xs" leftSection={<MenuIcon size={18} />} aria-label={t('menu.open')}>
          <Box component="span" visibleFrom="sm">
            {t('menu.title')}
          </Box>
        </Button>
      </Menu.Target>
      <Menu.Dropdown mah="calc(100dvh - 80px)" style={{ overflowY: 'auto' }}>
        {items.map((item) =>
          item.children && item.children.length > 0 ? (
            // A drop-down without a page of its own (compose) is just its items: its name over them
            // would say "Compose" twice, once as a heading and once as the item that composes.
            <Fragment key={item.id}>
              {item.route && entry(item)}
              {item.children.map((child) => entry(child, item.route !== undefined))}
            </Fragment>
          ) : (
            entry(item)
          ),
        )}
      </Menu.Dropdown>
    </Menu>
  );
}
