// A Swagger UI plugin that fixes what axe finds in Swagger UI's own markup, through Swagger UI's plugin API
// (components replaced or wrapped). Swagger UI bundles its own React, so these components are built with
// the React it hands to plugins (`system.React`), never with the app's. The colours, focus rings, sizes and
// phone layout are in api-reference.css.

// Swagger UI's plugin system is untyped: these are the few members used here, values passed through are unknown.
type Rendered = unknown;
type Component = (props: Record<string, unknown>) => Rendered;
type SwaggerReact = {
  createElement: (type: unknown, props?: Record<string, unknown> | null, ...children: unknown[]) => Rendered;
  useRef: <T>(initial: T) => { current: T };
  useEffect: (effect: () => void | (() => void), dependencies?: unknown[]) => void;
  Fragment: unknown;
};
type Sequence = { size: number; valueSeq: () => { map: (each: (value: unknown, key: number) => Rendered) => unknown } };
type SystemProps = {
  getComponent: (name: string) => unknown;
  specSelectors: { servers: () => Sequence | undefined };
  oas3Selectors: { selectedServer: () => string; serverVariableValue: unknown; serverEffectiveValue: unknown };
  oas3Actions: { setSelectedServer: unknown; setServerVariableValue: unknown };
  authSelectors: { shownDefinitions: () => Sequence };
  authActions: { showDefinitions: (shown: boolean) => void };
  errSelectors: unknown;
  fn: { AST?: unknown };
};

export function accessibleDocsPlugin(system: { React: SwaggerReact }) {
  const React = system.React;
  const h = React.createElement;

  // Swagger UI's select of servers sits in an empty <label>: this one is labelled "Server".
  function ServersContainer({ specSelectors, oas3Selectors, oas3Actions, getComponent }: SystemProps) {
    const servers = specSelectors.servers();
    if (!servers?.size) return null;
    return h(
      "section",
      { "aria-label": "Server" },
      h("label", { htmlFor: "servers", className: "servers-title" }, "Server"),
      h(getComponent("Servers"), {
        servers,
        currentServer: oas3Selectors.selectedServer(),
        setSelectedServer: oas3Actions.setSelectedServer,
        setServerVariableValue: oas3Actions.setServerVariableValue,
        getServerVariable: oas3Selectors.serverVariableValue,
        getEffectiveServerValue: oas3Selectors.serverEffectiveValue,
      }),
    );
  }

  // Swagger UI's dialog is a set of divs. This one is a modal dialog to assistive technology with a named
  // close button; the focus starts inside (Swagger UI's key field takes it), stays inside (Tab wraps, and when
  // authorizing replaces the field, the focus goes to Close rather than to the page), Escape closes, and the
  // focus goes back to the button that opened the dialog. Its Authorize and Logout buttons are named by their
  // text, not by Swagger UI's aria-labels ("Apply credentials", "Remove authorization"): a speech user says what
  // they see (WCAG 2.5.3).
  function AuthorizationPopup(props: SystemProps) {
    const { authSelectors, authActions, getComponent, errSelectors, specSelectors, fn } = props;
    const dialog = React.useRef<HTMLElement | null>(null);
    // Read while rendering, before the key field's autofocus moves the focus: the button that opened it.
    const opener = React.useRef(document.activeElement);
    const close = () => authActions.showDefinitions(false);
    React.useEffect(() => {
      const box = dialog.current;
      if (!box) return;
      const keepFocusInside = () => {
        if (box.contains(document.activeElement)) return;
        (
          box.querySelector("input") ??
          box.querySelector<HTMLElement>(".btn-done") ??
          box.querySelector("button")
        )?.focus();
      };
      const namedByText = () => {
        for (const button of box.querySelectorAll("button[aria-label]"))
          if (button.textContent?.trim()) button.removeAttribute("aria-label");
      };
      keepFocusInside();
      namedByText();
      const observer = new MutationObserver(() => {
        keepFocusInside();
        namedByText();
      });
      observer.observe(box, { childList: true, subtree: true, attributes: true, attributeFilter: ["aria-label"] });
      const openedBy = opener.current;
      return () => {
        observer.disconnect();
        if (openedBy instanceof HTMLElement && openedBy.isConnected) openedBy.focus();
      };
    }, []);
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === "Escape") return close();
      if (event.key !== "Tab") return;
      const box = dialog.current;
      const focusable = [...(box?.querySelectorAll<HTMLElement>("button, input, select, textarea, a[href]") ?? [])];
      const first = focusable[0];
      const last = focusable[focusable.length - 1];
      if (event.shiftKey && document.activeElement === first) {
        event.preventDefault();
        last.focus();
      } else if (!event.shiftKey && document.activeElement === last) {
        event.preventDefault();
        first.focus();
      }
    };
    const Auths = getComponent("auths");
    const CloseIcon = getComponent("CloseIcon");
    const definitions = authSelectors.shownDefinitions();
    return h(
      "div",
      { className: "dialog-ux" },
      h("div", { className: "backdrop-ux", onClick: close }),
      h(
        "div",
        { className: "modal-ux" },
        h(
          "div",
          { className: "modal-dialog-ux" },
          h(
            "div",
            {
              className: "modal-ux-inner",
              role: "dialog",
              "aria-modal": "true",
              "aria-labelledby": "authorizations-title",
              ref: dialog,
              onKeyDown,
            },
            h(
              "div",
              { className: "modal-ux-header" },
              h("h3", { id: "authorizations-title" }, "Available authorizations"),
              h(
                "button",
                { type: "button", className: "close-modal", "aria-label": "Close the dialog", onClick: close },
                h(CloseIcon),
              ),
            ),
            h(
              "div",
              { className: "modal-ux-content" },
              definitions.valueSeq().map((definition, key) =>
                h(Auths, {
                  key,
                  AST: fn.AST ?? {},
                  definitions: definition,
                  getComponent,
                  errSelectors,
                  authSelectors,
                  authActions,
                  specSelectors,
                }),
              ),
            ),
          ),
        ),
      ),
    );
  }

  // A parameter's field (a text box, or a select for an enum) gets its parameter's name as its label.
  const labelled = (Original: Component) =>
    function LabelledField(props: Record<string, unknown> & { description?: string }) {
      return h(
        "label",
        { className: "parameter-field" },
        h("span", { className: "sr-only" }, props.description),
        h(Original, props),
      );
    };

  // Each operation's responses table is an ARIA region (a live one): regions need distinct names. Swagger UI
  // gives the table no name and no way to pass one, hence the attribute set after each render.
  const namedResponses = (Original: Component) =>
    function NamedResponses(props: Record<string, unknown>) {
      const box = React.useRef<HTMLElement | null>(null);
      React.useEffect(() => {
        const name = `Responses of ${String(props.method).toUpperCase()} ${String(props.path)}`;
        box.current?.querySelector(".responses-table")?.setAttribute("aria-label", name);
      });
      return h("div", { ref: box }, h(Original, props));
    };

  return {
    components: {
      // An operation's summary is a button; the deep link Swagger UI puts inside it was a link nested in a
      // button. The address still follows the open operation (deepLinking), so a link to one still works.
      DeepLink: ({ text }: { text: string }) => h("span", null, text),
      ServersContainer,
      authorizationPopup: AuthorizationPopup,
    },
    wrapComponents: {
      // Landmarks: what Swagger UI renders before its <main> goes into named sections, so that nothing on
      // the page is outside a landmark; the h2s keep the headings in order (h1 title, h3 dialog and tags).
      InfoContainer: (Original: Component) => (props: Record<string, unknown>) =>
        h("section", { "aria-label": "About this API" }, h(Original, props)),
      AuthorizeBtnContainer: (Original: Component) => (props: Record<string, unknown>) =>
        h(
          "section",
          { "aria-labelledby": "authorization-title" },
          h("h2", { id: "authorization-title", className: "sr-only" }, "Authorization"),
          h(Original, props),
        ),
      operations: (Original: Component) => (props: Record<string, unknown>) =>
        h(React.Fragment, null, h("h2", { className: "sr-only" }, "Operations"), h(Original, props)),
      RequestBodyEditor: (Original: Component) => (props: Record<string, unknown>) =>
        h(
          "label",
          { className: "request-body-field" },
          h("span", { className: "sr-only" }, "Request body"),
          h(Original, props),
        ),
      responses: namedResponses,
      JsonSchema_string: labelled,
      JsonSchema_boolean: labelled,
    },
  };
}
