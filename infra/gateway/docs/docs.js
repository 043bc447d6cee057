// Renders the combined OpenAPI document of the gateway with the shop's Swagger UI bundle.
// "Try it out" goes to the gateway this page came from: its origin is put first among the servers.
/* global SwaggerUIBundle */
(function () {
  'use strict';
  var DOCUMENT_URL = '/gateway/openapi.json';

  function render(options) {
    window.ui = SwaggerUIBundle(
      Object.assign(
        {
          dom_id: '#swagger-ui',
          deepLinking: true,
          layout: 'BaseLayout',
          presets: [SwaggerUIBundle.presets.apis],
          // Offline: never send the document to the public validator service.
          validatorUrl: null,
        },
        options,
      ),
    );
  }

  function withThisGateway(spec) {
    var here = window.location.origin;
    var others = (spec.servers || []).filter(function (server) {
      return server.url !== here;
    });
    spec.servers = [{ url: here, description: 'This gateway' }].concat(others);
    return spec;
  }

  fetch(DOCUMENT_URL, { headers: { accept: 'application/json' } })
    .then(function (response) {
      if (!response.ok) throw new Error(DOCUMENT_URL + ' answered ' + response.status);
      return response.json();
    })
    .then(function (spec) {
      render({ spec: withThisGateway(spec) });
    })
    .catch(function () {
      // Let Swagger UI load (and report on) the document itself.
      render({ url: DOCUMENT_URL });
    });
})();
